import { FastifyReply } from 'fastify';

/** An AbortSignal that fires when the client disconnects before its reply was written. */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  const onClose = (): void => {
    if (!response.writableFinished) controller.abort();
  };
  response.once('close', onClose);
  return controller.signal;
}
