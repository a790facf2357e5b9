import { LogScope } from '../event-log';

/** Characters a subject token may hold as they are; anything else is written `~<hex of UTF-8>`. */
const SAFE_TOKEN = /^[A-Za-z0-9_-]+$/;
/** The scope of records appended without one (tests, tools): one scope for all of them. */
const UNSCOPED: LogScope = ['_'];

/**
 * The stream's subjects (docs/scaling.md, "Subjects and scopes"). Every record goes to
 * `chat.<stream>.v2.<scope>`, where `<scope>` is ONE token, the scope's tokens joined by `:`
 * (`r:lobby` holds the room's events and its ownership notes, `n:topic:x` one note): a scope is
 * exactly one subject, so its precondition is the plain `Nats-Expected-Last-Subject-Sequence`. Tokens
 * outside [A-Za-z0-9_-] (no room or note name today) are written `~` and the hex of their UTF-8
 * bytes: reversible, never colliding with a plain token (which cannot hold `~`), never holding `.`,
 * `:`, `*`, `>` or white space.
 *
 * Records written before per-scope preconditions (the version-1 layout) are on `chat.<stream>.log`;
 * they stay readable and belong to no scope.
 */
export class SubjectLayout {
  private readonly prefix: string;

  constructor(readonly stream: string) {
    this.prefix = `chat.${stream}.v2.`;
  }

  /** What the stream captures: every new record, not the version-1 subject (old nodes cannot write). */
  streamSubjects(): string[] {
    return [`${this.prefix}*`];
  }

  /** The version-1 layout's capture (one subject `chat.<stream>.log`, inside it). */
  legacyStreamSubjects(): string[] {
    return [`chat.${this.stream}.>`];
  }

  /** The scope's id: its one subject token (also the key of every per-scope table). */
  scopeId(scope: LogScope = UNSCOPED): string {
    return scope.map(encodeToken).join(':');
  }

  subject(scopeId: string): string {
    return `${this.prefix}${scopeId}`;
  }

  /** The scope a stored record belongs to, or undefined (a version-1 record). */
  scopeOf(subject: string): string | undefined {
    return subject.startsWith(this.prefix) ? subject.slice(this.prefix.length) : undefined;
  }
}

export function encodeToken(token: string): string {
  return SAFE_TOKEN.test(token) ? token : `~${Buffer.from(token, 'utf8').toString('hex')}`;
}

export function decodeToken(token: string): string {
  return token.startsWith('~') ? Buffer.from(token.slice(1), 'hex').toString('utf8') : token;
}
