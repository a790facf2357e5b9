import { BadRequestError } from '../../common/errors/bad-request.error';
import { pyRepr } from '../../common/py-compat/py-repr';

/** A seq as the new cursor parameters take it: plain ASCII digits, at most 15 (exact as a number). */
const SEQ = /^\d{1,15}$/;

/**
 * Parses a seq given in a parameter of the paging and streaming routes (`before`, `after`, `since` of
 * a stream). Unlike the contract's `since` of a room read, which falls back silently (§7.1), these are
 * refused with a 400 naming the parameter: a cursor read wrongly would make an archiver fetch the same
 * page forever, or a stream silently start somewhere else.
 */
export function parseSeqParam(name: string, raw: string): number {
  if (!SEQ.test(raw)) {
    throw new BadRequestError(
      `bad ${name}: ${pyRepr(raw)} is not a seq. Send ${name}=<seq> with 1-15 ASCII digits, e.g. ` +
        `${name}=41 (a seq from a reply's first_seq or last_seq).`,
    );
  }
  return Number(raw);
}
