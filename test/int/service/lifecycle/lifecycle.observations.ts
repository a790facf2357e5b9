/** How the lifecycle test reads the real service's state and compares it with the model. */
import { lastLine } from '../../../support/notes-kit';
import { LifecycleModel, RoomView } from './lifecycle.model';
import { LifecycleSystem, Reply } from './lifecycle.system';

/** A plain room, an ephemeral one and an ownable one (contract §3.2). */
export const ROOMS = ['plain', 'e-brief', 'd-owned'] as const;
export const OWNED_ROOM = 'd-owned';
export const NOTE_KEYS = ['k1', 'k2'] as const;

/** A 200 reply's JSON body. */
export function parse(reply: Reply): Record<string, unknown> {
  if (reply.status !== 200) throw new Error(`expected 200, got ${reply.status}: ${reply.body}`);
  return JSON.parse(reply.body) as Record<string, unknown>;
}

/** The fields of a JSON room read the model decides. */
export function viewOf(body: Record<string, unknown>): RoomView {
  const messages = body.messages as Array<{ seq: number; from: string; text: string }>;
  return {
    count: body.count as number,
    first_seq: body.first_seq as number | null,
    last_seq: body.last_seq as number,
    generation: body.generation as number,
    messages: messages.map(({ seq, from, text }) => ({ seq, from, text })),
  };
}

/** A note's value as a text read shows it (the last line), or null for a 404. */
export async function readNote(real: LifecycleSystem, id: string): Promise<string | null> {
  const reply = await real.get(`/kv/${id}`);
  if (reply.status === 404) return null;
  expect(reply.status).toBe(200);
  return lastLine(reply.body);
}

/** Every note the commands write, as `ns/key`. */
export const NOTE_IDS = [...NOTE_KEYS.map((key) => `ns/${key}`), `room-owners/${OWNED_ROOM}`];

/**
 * Every room and note as the service shows them, against the model; [] when all agree. Which rooms
 * exist is read from /rooms: a reaped e- room and one whose records all expired read the same.
 */
export async function differences(model: LifecycleModel, real: LifecycleSystem): Promise<string[]> {
  const found: string[] = [];
  const listed = parse(await real.get('/rooms?format=json&limit=200')).rooms as Array<{ room: string }>;
  const existing = ROOMS.filter((room) => listed.some((entry) => entry.room === room));
  const modelled = ROOMS.filter((room) => model.room(room).exists);
  if (existing.join() !== modelled.join()) found.push(`rooms ${existing.join()} != model ${modelled.join()}`);
  for (const room of ROOMS) {
    const actual = viewOf(parse(await real.get(`/r/${room}?format=json&limit=200`)));
    const expected = model.view(room, undefined, 200);
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      found.push(`room ${room}: ${JSON.stringify(actual)} != model ${JSON.stringify(expected)}`);
  }
  for (const id of NOTE_IDS) {
    const actual = await readNote(real, id);
    const expected = model.notes.get(id)?.value ?? null;
    if (actual !== expected) found.push(`note ${id}: ${actual} != model ${expected}`);
  }
  return found;
}

/** After a jump in time the reapers act on their next passes (every 0.2 s): wait for them, within reason. */
export async function settled(model: LifecycleModel, real: LifecycleSystem): Promise<void> {
  const deadline = Date.now() + 30_000;
  let found = await differences(model, real);
  while (found.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    found = await differences(model, real);
  }
  expect(found).toEqual([]);
}
