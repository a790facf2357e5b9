import { DomainError } from '../../common/domain-error';

/** Fastify could not read the Content-Type as a media type (FST_ERR_CTP_INVALID_MEDIA_TYPE): 415 as it was. */
export class UnsupportedMediaTypeError extends DomainError {
  constructor() {
    super(
      'unsupported_media_type',
      'unsupported media type: the Content-Type header is not a media type (type/subtype). Send ' +
        'Content-Type: application/json with a JSON body, or neither a Content-Type nor a body.',
    );
  }
}
