import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { DomainError } from '../common/domain-error';
import { methodNotAllowedText, routeMapText } from './render/route-map.text';
import { CompressedBody } from './compression/compressed-body';
import { Replies } from './reply';
import { resolveUnmatched } from './routes/route-resolution';
import { requestPath } from './url/decode-path';
import { closeIfBodyUnread } from './unread-body';
import { noteRefusal } from './refusal-tags';
import { refusalStatus, refusalText } from './refusals/refusal-text';
import { frameworkRefusal } from './refusals/framework-refusal';

interface FastifyLikeError {
  readonly statusCode?: number;
  readonly code?: string;
  readonly message: string;
}

/**
 * Turns every failure into a text/plain reply that starts with its status (contract §14), even when
 * the caller asked for JSON. Domain errors get their status from ERROR_STATUS; an unmatched route
 * becomes a 405, a trailing-slash 307 or the 404 route map; anything unexpected is logged and
 * answered 500 without internals.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');
  private readonly replies: Replies;
  /** The 404 body never changes and is never rate limited: rendered and compressed once. */
  private readonly routeMap: CompressedBody;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.replies = new Replies(0);
    this.routeMap = new CompressedBody(Buffer.from(`${routeMapText(config.maxWait)}\n`, 'utf8'));
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (reply.sent) return;
    closeIfBodyUnread(request, reply);
    if (exception instanceof DomainError) {
      return this.refuse(request, reply, exception);
    }
    if (exception instanceof HttpException && exception.getStatus() === 404) {
      return this.unmatched(request, reply);
    }
    const error = exception as FastifyLikeError;
    // Fastify's own refusals (e.g. 415 for a body of an unknown type on a route without our body
    // reader) reach here as they are, or wrapped by Nest in an HttpException: both are the client's.
    const clientStatus = exception instanceof HttpException ? exception.getStatus() : error?.statusCode;
    if (typeof clientStatus === 'number' && clientStatus >= 400 && clientStatus < 500) {
      const known = frameworkRefusal(clientStatus);
      if (known !== undefined) return this.refuse(request, reply, known);
      return this.replies.text(
        reply,
        `${clientStatus} ${error.message}: refused before any route ran; GET /llms.txt lists the requests this service takes.`,
        'no-store',
        clientStatus,
      );
    }
    this.logger.error(
      exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
    );
    this.replies.text(
      reply,
      '500 internal error: the server failed; nothing was changed by this request.',
      'no-store',
      500,
    );
  }

  /** A DomainError: its status from the one table, its headers, and the body of contract §14. */
  private refuse(request: FastifyRequest, reply: FastifyReply, exception: DomainError): void {
    if (exception.code === 'route_not_found') return this.notFound(reply);
    for (const [name, value] of Object.entries(exception.headers)) reply.header(name, value);
    const status = refusalStatus(exception);
    noteRefusal(request.raw, exception.refusalKind);
    if (status >= 500 && exception.code !== 'shutting_down') this.logger.error(exception.message);
    this.replies.text(reply, refusalText(exception), 'no-store', status);
  }

  private unmatched(request: FastifyRequest, reply: FastifyReply): void {
    const path = requestPath(request.raw.url ?? request.url);
    const resolution = resolveUnmatched(request.method, path);
    switch (resolution.kind) {
      case 'method_not_allowed':
        reply.header('allow', resolution.allow.join(', '));
        return this.replies.text(
          reply,
          methodNotAllowedText(request.method, resolution.allow),
          'no-store',
          405,
        );
      case 'redirect': {
        const url = request.raw.url ?? request.url;
        const q = url.indexOf('?');
        const query = q < 0 ? '' : url.slice(q);
        reply.header('location', encodeURI(resolution.path) + query);
        return this.replies.text(reply, `307 moved: ${resolution.path}`, 'no-store', 307);
      }
      case 'not_found':
        return this.notFound(reply);
    }
  }

  private notFound(reply: FastifyReply): void {
    this.replies.text(reply, this.routeMap, 'no-store', 404);
  }
}
