import { DomainError } from '../../common/domain-error';
import { UnsupportedMediaTypeError } from './unsupported-media-type.error';

/**
 * Fastify's own 4xx refusals that can reach this service, as DomainErrors (issue 24 item 8). Nest hands
 * the filter a Fastify error re-wrapped as an HttpException (status and message, the code dropped), so
 * they are told apart by status. Only one can occur: 415 (FST_ERR_CTP_INVALID_MEDIA_TYPE), a
 * Content-Type that is no media type on a method with a body. Every content type has the one raw
 * parser (installHttpHooks), the router sees only re-encoded paths (rewriteUrl: no bad escape, no
 * over-long parameter), and no route has a schema; anything else gets the filter's generic text.
 */
export function frameworkRefusal(status: number): DomainError | undefined {
  return status === 415 ? new UnsupportedMediaTypeError() : undefined;
}
