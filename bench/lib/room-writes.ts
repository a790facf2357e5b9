import { load, LoadResult } from './load';

const TEXT = 'benchmark write with a realistic length of a short agent status update';

/** POSTs to `rooms` (names) for `seconds`, spread round-robin, unique texts tagged `tag`. */
export function roomWrites(
  url: string,
  rooms: readonly string[],
  seconds: number,
  connections: number,
  tag: string,
): Promise<LoadResult> {
  let n = 0;
  const next = (request: Record<string, unknown>) => ({
    ...request,
    method: 'POST',
    path: `/r/${rooms[n % rooms.length]}`,
    body: JSON.stringify({ from: 'bench', text: `${TEXT} ${tag} ${n++}` }),
  });
  return load({
    url,
    seconds,
    connections,
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: next }] as never,
  });
}

/** One message, outside any measurement (rooms are created by their first message). */
export async function postMessage(url: string, room: string, text: string): Promise<void> {
  await fetch(`${url}/r/${room}`, { method: 'POST', body: JSON.stringify({ from: 'seed', text }) });
}

/** A text of the same length as the measured writes' (seeding `readme` rooms). */
export const seedText = (i: number): string => `${TEXT} ${i}`;
