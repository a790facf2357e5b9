import { request } from 'node:http';

/** Small HTTP helpers for seeding benchmark state (global fetch, loopback only). */
export async function get(url: string): Promise<string> {
  const response = await fetch(url);
  const body = await response.text();
  if (!response.ok) throw new Error(`GET ${url} → ${response.status}: ${body.slice(0, 200)}`);
  return body;
}

export async function postJson(url: string, body: unknown): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} → ${response.status}: ${text.slice(0, 200)}`);
  return text;
}

/** Runs `count` tasks with at most `parallel` in flight. */
export async function inParallel(
  count: number,
  parallel: number,
  task: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(parallel, count) }, async () => {
    while (next < count) await task(next++);
  });
  await Promise.all(workers);
}

/** Byte length of what a GET returns (sizes the baseline's body). */
export async function bodyBytes(url: string): Promise<number> {
  return Buffer.byteLength(await get(url), 'utf8');
}

/** Bytes on the wire of a GET asking for `coding` (fetch would decode them), and the coding answered. */
export function encodedBytes(url: string, coding: string): Promise<{ bytes: number; coding: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': coding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, coding: String(res.headers['content-encoding'] ?? 'none') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Gives the baseline the very bytes and content type a GET of `url` returns from the service, and
 * returns the baseline URL that serves them (bench/lib/baseline-server.ts, `/same/<name>`). A body
 * of the same size but other bytes is not the same work for the load generator: autocannon decodes
 * every body into a string, and a non-ASCII character (the rooms' banner has an em dash) takes
 * that decoding off its fast path for the whole body.
 */
export async function sameBytes(
  url: string,
  baselineUrl: string,
  name: string,
): Promise<{ url: string; bytes: number }> {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`GET ${url} → ${response.status}`);
  const stored = await fetch(`${baselineUrl}/same/${name}`, {
    method: 'PUT',
    body,
    headers: {
      'content-type': 'application/octet-stream',
      'x-served-type': response.headers.get('content-type') ?? 'text/plain; charset=utf-8',
    },
  });
  if (!stored.ok) throw new Error(`PUT ${baselineUrl}/same/${name} → ${stored.status}`);
  return { url: `${baselineUrl}/same/${name}`, bytes: body.length };
}
