import { Agent, request } from 'node:http';
import { rssBytes } from './proc-stats';

/** A request the server holds open (a long-poll). */
export interface Held {
  /** Resolves once the request's connection is established (it is then parked or about to be). */
  readonly connected: Promise<void>;
  /** Resolves with the time (ms, hrtime) the response completed. */
  readonly done: Promise<number>;
}

export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function hold(agent: Agent, url: string): Held {
  let onConnect: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (onConnect = resolve));
  const done = new Promise<number>((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(nowMs()));
    });
    req.on('socket', (socket) => (socket.connecting ? socket.once('connect', onConnect) : onConnect()));
    req.on('error', reject);
    req.end();
  });
  return { connected, done };
}

/** Rejects after `ms`: a round that cannot finish must not hang the whole run. */
export function within<T>(ms: number, work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  ]);
}

/** The process's RSS once it stopped moving by more than 256 KiB per 250 ms (at most 5 s). */
export async function settledRss(pid: number): Promise<number> {
  let last = rssBytes(pid);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const now = rssBytes(pid);
    if (Math.abs(now - last) < 256 * 1024) return now;
    last = now;
  }
  return last;
}
