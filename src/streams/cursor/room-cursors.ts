import { BadRequestError } from '../../common/errors/bad-request.error';
import { isValidName, NAME_PATTERN_SOURCE } from '../../common/names';
import { pyRepr } from '../../common/py-compat/py-repr';

/**
 * Where a reader stands in one room: everything up to `since` was seen (null: start at the room's
 * newest message, i.e. only what comes next), in `generation` (null: not known, so no reset can be
 * told). Seqs continue across a reap (contract §9.3), so `since` stays meaningful in a new generation.
 */
export interface RoomCursor {
  readonly room: string;
  readonly since: number | null;
  readonly generation: number | null;
}

/** A cursor after a read: always a seq and the generation it was read in. */
export interface Position {
  readonly room: string;
  readonly seq: number;
  readonly generation: number;
}

const NUMBER = /^\d{1,15}$/;

/**
 * One cursor string for many rooms, the same grammar wherever it appears (`rooms=` of /watch and
 * /watch/sse, the event ids of every stream, the `cursor` of a /watch reply, `Last-Event-ID`):
 * comma-separated entries `<room>`, `<room>:<since>` or `<room>:<since>:<generation>`. Room names
 * cannot hold `:` or `,`, so the split is unambiguous; what the server hands out is always the full
 * three-part form, and a client passes it back unchanged.
 */
export function parseCursors(parameter: string, raw: string, maxRooms: number): RoomCursor[] {
  const entries = raw.split(',');
  if (raw.trim() === '') throw badCursor(parameter, 'it is empty', maxRooms);
  if (entries.length > maxRooms) {
    throw badCursor(
      parameter,
      `it lists ${entries.length} rooms and at most ${maxRooms} are allowed`,
      maxRooms,
    );
  }
  const seen = new Set<string>();
  return entries.map((entry) => {
    const cursor = parseEntry(parameter, entry, maxRooms);
    if (seen.has(cursor.room)) throw badCursor(parameter, `it lists ${cursor.room} twice`, maxRooms);
    seen.add(cursor.room);
    return cursor;
  });
}

function parseEntry(parameter: string, entry: string, maxRooms: number): RoomCursor {
  const [room, since, generation, ...rest] = entry.split(':');
  if (!isValidName(room)) {
    throw badCursor(
      parameter,
      `${pyRepr(room)} is not a room name (names match ${NAME_PATTERN_SOURCE})`,
      maxRooms,
    );
  }
  const number = (part: string | undefined, what: string): number | null => {
    if (part === undefined) return null;
    if (!NUMBER.test(part)) {
      throw badCursor(parameter, `${pyRepr(part)} after ${room}: is not a ${what} (1-15 digits)`, maxRooms);
    }
    return Number(part);
  };
  if (rest.length > 0) throw badCursor(parameter, `${pyRepr(entry)} has more than three parts`, maxRooms);
  return { room, since: number(since, 'seq'), generation: number(generation, 'generation') };
}

function badCursor(parameter: string, problem: string, maxRooms: number): BadRequestError {
  return new BadRequestError(
    `bad ${parameter}: ${problem}. Send up to ${maxRooms} comma-separated entries <room>, <room>:<since> ` +
      `or <room>:<since>:<generation>, e.g. lobby:41,mb-me:0 (since: the last seq you saw, 0 for ` +
      `everything the ring holds, none for only new messages); pass back the cursor a reply or an ` +
      `event id gave you unchanged.`,
  );
}

/** The cursor string of positions, in the order given. */
export function formatCursors(positions: readonly Position[]): string {
  let out = '';
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i];
    out += `${i === 0 ? '' : ','}${p.room}:${p.seq}:${p.generation}`;
  }
  return out;
}
