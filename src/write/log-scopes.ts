import { LogScope } from '../log/event-log';

/**
 * The scopes of a shared log (docs/scaling.md, "Subjects and scopes"): what a write decision reads.
 * A room's events and its ownership notes (owner, allow-list, nonce counter) share the room's scope,
 * so one precondition covers a message and the claim it races; any other note is a scope of its own.
 * Every scope kind has a fixed number of tokens.
 */
export function roomScope(room: string): LogScope {
  return ['r', room];
}

/** A note outside the ownership namespaces (those are in their room's scope). */
export function noteScope(ns: string, key: string): LogScope {
  return ['n', ns, key];
}
