import fc from 'fast-check';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { rawCase, RawCase } from './raw-http-arbitraries';

export interface RawFuzzOptions {
  /** The listening service, `http://host:port`. */
  readonly url: string;
  readonly cases: number;
  readonly seed: number;
  /** Connections open at once. */
  readonly concurrency?: number;
}

export interface RawFuzzFigures {
  readonly cases: number;
  readonly seed: number;
  readonly statuses: Record<number, number>;
  /** Cases the server closed without a single reply (the first few, as sent). */
  readonly silent: string[];
  /** Replies that break the error doctrine, each with the request that drew it. */
  readonly breaches: string[];
}

interface ParsedReply {
  readonly status: number;
  readonly headers: Map<string, string>;
  /** Null for a reply to HEAD. */
  readonly body: string | null;
}

/** Everything the server sends until it closes (each case ends with a request that closes it). */
function exchange(url: string, bytes: Buffer): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

function decoded(body: Buffer, coding: string | undefined): string {
  if (coding === 'gzip') return gunzipSync(body).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(body).toString('utf8');
  return body.toString('utf8');
}

/**
 * The replies in a byte stream (Content-Length or chunked framing); stops at anything else. `methods`
 * are the methods of the requests in order: a reply to HEAD has no body whatever its headers say.
 */
function parseReplies(data: Buffer, methods: readonly string[]): ParsedReply[] {
  const replies: ParsedReply[] = [];
  let at = 0;
  while (at < data.length) {
    const head = methods[replies.length] === 'HEAD';
    const headEnd = data.indexOf('\r\n\r\n', at, 'latin1');
    if (headEnd < 0) break;
    const [statusLine, ...lines] = data.toString('latin1', at, headEnd).split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (status === null) break;
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    let bodyEnd = headEnd + 4;
    const parts: Buffer[] = [];
    const length = headers.get('content-length');
    if (head) {
      // no body
    } else if (length !== undefined) {
      parts.push(data.subarray(bodyEnd, bodyEnd + Number(length)));
      bodyEnd += Number(length);
    } else if (headers.get('transfer-encoding') === 'chunked') {
      for (;;) {
        const sizeEnd = data.indexOf('\r\n', bodyEnd, 'latin1');
        if (sizeEnd < 0) return replies;
        const size = parseInt(data.toString('latin1', bodyEnd, sizeEnd), 16);
        parts.push(data.subarray(sizeEnd + 2, sizeEnd + 2 + size));
        bodyEnd = sizeEnd + 2 + size + 2;
        if (size === 0) break;
      }
    }
    const body = head ? null : decoded(Buffer.concat(parts), headers.get('content-encoding'));
    replies.push({ status: Number(status[1]), headers, body });
    at = bodyEnd;
  }
  return replies;
}

/** How a reply breaks the doctrine of contract §14, or null: every refusal is text/plain and starts with its status. */
function doctrineBreach(reply: ParsedReply): string | null {
  if (reply.status < 400) return null;
  const type = reply.headers.get('content-type');
  if (type !== 'text/plain; charset=utf-8') return `${reply.status} with content-type ${String(type)}`;
  if (reply.body === null) return null;
  if (!reply.body.startsWith(`${reply.status} `))
    return `${reply.status} body starts ${JSON.stringify(reply.body.slice(0, 40))}`;
  if (!reply.body.endsWith('\n')) return `${reply.status} body does not end with a newline`;
  return null;
}

/**
 * The raw-socket fuzzer (issue 24 item 8): fast-check draws hostile HTTP/1.1 bytes (raw-http-arbitraries)
 * and writes each on its own connection to a listening service. What Fastify inject
 * never exercises — Node's parser, its timers, Fastify's client-error handler — answers on the wire.
 * The property: every reply with a status of 400 or more is text/plain, starts with its status and
 * ends with a newline. Cases the server closes without any reply are counted (a CONNECT once was).
 */
export async function runRawHttpFuzz(options: RawFuzzOptions): Promise<RawFuzzFigures> {
  const samples: RawCase[] = fc.sample(rawCase, { seed: options.seed, numRuns: options.cases });
  const statuses: Record<number, number> = {};
  const breaches: string[] = [];
  const silent: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < samples.length) {
      const sample = samples[next++];
      const replies = parseReplies(await exchange(options.url, sample.bytes), sample.methods);
      if (replies.length === 0) silent.push(JSON.stringify(sample.bytes.toString('latin1').slice(0, 120)));
      for (const reply of replies) {
        statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
        const breach = doctrineBreach(reply);
        if (breach !== null)
          breaches.push(`${breach} for ${JSON.stringify(sample.bytes.toString('latin1').slice(0, 120))}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  return { cases: samples.length, seed: options.seed, statuses, silent, breaches };
}
