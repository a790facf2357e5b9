import { request } from 'node:http';

/** When a dropped request's connection is cut. */
export type DropMoment = 'after-send' | 'at-reply';

/**
 * Sends a whole request on a fresh connection and drops the connection before the reply is read: right
 * after the request left (`after-send`), or as the reply starts to arrive (`at-reply`), as a client
 * whose network failed or whose timeout fired would. Resolves once the connection is gone; the server
 * may still be working on the request.
 */
export function sendAndDrop(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string; drop: DropMoment },
): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { method: options.method, headers: options.headers, agent: false });
    const cut = (): void => {
      req.destroy();
      resolve();
    };
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.on('response', (res) => {
      res.destroy();
      cut();
    });
    if (options.drop === 'after-send') req.on('finish', () => setImmediate(cut));
    req.end(options.body);
  });
}
