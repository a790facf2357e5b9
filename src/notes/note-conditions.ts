import { BadRequestError } from '../common/errors/bad-request.error';
import { pyRepr } from '../common/py-compat/py-repr';

/** The conditions of one note write (contract §10.3); both absent means an unconditional write. */
export interface NoteConditions {
  /** Compare-and-set: write only if the note holds exactly this value. `''` can never match. */
  readonly ifValue: string | null;
  /** Write only if there is no note yet. */
  readonly ifAbsent: boolean;
}

/** `?if=` and `?if_absent=` of a GET lane as sent (absent: undefined); parsed by the lane after its gate. */
export interface QueryConditionFields {
  readonly if?: string;
  readonly if_absent?: string;
}

/** The `if` and `if_absent` fields of a POST body as sent, any JSON type; parsed by the lane at its step. */
export interface BodyConditionFields {
  readonly if?: unknown;
  readonly if_absent?: unknown;
}

const TRUE_FORMS: ReadonlySet<string> = new Set(['1', 'true', 'yes', 'on']);
const FALSE_FORMS: ReadonlySet<string> = new Set(['', '0', 'false', 'no', 'off']);
/** The reference lists the accepted spellings sorted, as Python prints a sorted list of str. */
const ACCEPTED = `[${[...TRUE_FORMS, ...FALSE_FORMS]
  .sort()
  .map((form) => pyRepr(form))
  .join(', ')}]`;

/** `?if=` and `?if_absent=` of the GET lanes: `if` present (even empty) is a condition. */
export function parseQueryConditions(query: QueryConditionFields): NoteConditions {
  const ifAbsent = query.if_absent === undefined ? false : truthOf(query.if_absent);
  return combine(query.if ?? null, ifAbsent);
}

/**
 * The `if` and `if_absent` body fields of POST: `if` null or absent is no condition, any other
 * non-string is a 400; `if_absent` also takes JSON true/false, while null or a number is a 400.
 */
export function parseBodyConditions(body: BodyConditionFields): NoteConditions {
  const ifField = body.if;
  if (ifField !== undefined && ifField !== null && typeof ifField !== 'string') {
    throw new BadRequestError('bad if: must be a string');
  }
  const raw = body.if_absent;
  let ifAbsent = false;
  if (typeof raw === 'boolean') ifAbsent = raw;
  else if (typeof raw === 'string') ifAbsent = truthOf(raw);
  else if (raw !== undefined) throw new BadRequestError('bad if_absent: must be a string');
  return combine(ifField ?? null, ifAbsent);
}

/** The if_absent truth table: case-insensitive, anything outside it refused with the accepted list. */
function truthOf(raw: string): boolean {
  const form = raw.toLowerCase();
  if (TRUE_FORMS.has(form)) return true;
  if (FALSE_FORMS.has(form)) return false;
  throw new BadRequestError(
    `bad if_absent: expected one of ${ACCEPTED}, not ${pyRepr(raw)}. Use 1 to write only when the ` +
      'note does not exist yet, or leave it out.',
  );
}

/** A true if_absent beside if is contradictory; a false one is no condition and leaves plain CAS. */
function combine(ifValue: string | null, ifAbsent: boolean): NoteConditions {
  if (ifAbsent && ifValue !== null) {
    throw new BadRequestError(
      'bad if_absent: send one condition, not both. if_absent=1 writes only when there is no note; ' +
        'if=<value> writes only when the note holds exactly that value.',
    );
  }
  return { ifValue, ifAbsent };
}
