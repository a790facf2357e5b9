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
