import { Injectable } from '@nestjs/common';

type Finish = (changed: boolean) => void;

/** A long-lived subscriber (a stream): told after every applied batch touching one of its rooms. */
export interface ChangeListener {
  /** `room` changed: the read model already shows it. */
  onChange(room: string): void;
  /** Shutdown: no more changes will come; end now. */
  onClose(): void;
}

/**
 * Wakes long-polls and streams after the projection has applied an append (never on the raw append,
 * so a woken reader always finds the message in the read model). Waiters and listeners are kept per
 * room; a wake-up, a timeout or a disconnect removes a waiter, and a listener unsubscribes when its
 * stream ends, so nothing accumulates. A multi-room waiter (`/watch`) sits in each of its rooms' sets
 * and leaves all of them at once.
 */
@Injectable()
export class ChangeNotifier {
  private readonly waiters = new Map<string, Set<Finish>>();
  private readonly listeners = new Map<string, Set<ChangeListener>>();
  private parked = 0;
  private closed = false;

  /** Resolves true when the room changes, false on timeout, abort or shutdown. */
  waitForChange(room: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return this.waitForAny([room], timeoutMs, signal);
  }

  /** Resolves true when any of `rooms` changes, false on timeout, abort or shutdown. */
  waitForAny(rooms: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.closed || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const sets = rooms.map((room) => setIn(this.waiters, room));
      let done = false;
      const finish: Finish = (changed) => {
        if (done) return;
        done = true;
        this.parked--;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        rooms.forEach((room, i) => leave(this.waiters, room, sets[i], finish));
        resolve(changed);
      };
      const onAbort = (): void => finish(false);
      const timer = setTimeout(onAbort, timeoutMs);
      this.parked++;
      for (const set of sets) set.add(finish);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Subscribes a stream to `rooms` until the returned function is called. After shutdown began the
   * listener is closed at once (on the next turn, so the caller finishes setting up first).
   */
  listen(rooms: readonly string[], listener: ChangeListener): () => void {
    if (this.closed) {
      setImmediate(() => listener.onClose());
      return () => undefined;
    }
    const sets = rooms.map((room) => setIn(this.listeners, room));
    for (const set of sets) set.add(listener);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      rooms.forEach((room, i) => leave(this.listeners, room, sets[i], listener));
    };
  }

  notify(room: string): void {
    const waiting = this.waiters.get(room);
    if (waiting !== undefined) for (const finish of [...waiting]) finish(true);
    const listening = this.listeners.get(room);
    if (listening !== undefined) for (const listener of listening) listener.onChange(room);
  }

  /** Shutdown: every parked long-poll answers now as if its wait ran out, every stream ends, none starts. */
  releaseAll(): void {
    this.closed = true;
    for (const set of [...this.waiters.values()]) for (const finish of [...set]) finish(false);
    const streams = new Set<ChangeListener>();
    for (const set of this.listeners.values()) for (const listener of set) streams.add(listener);
    for (const listener of streams) listener.onClose();
  }

  /** Long-polls parked right now (all rooms; a multi-room wait counts once). */
  get waiting(): number {
    return this.parked;
  }

  /** Stream subscriptions to `room` right now. */
  listenersOf(room: string): number {
    return this.listeners.get(room)?.size ?? 0;
  }
}

function setIn<T>(map: Map<string, Set<T>>, room: string): Set<T> {
  let set = map.get(room);
  if (set === undefined) map.set(room, (set = new Set()));
  return set;
}

/** Removes `member` from the room's set, and the set from the map once empty (if it is still the one). */
function leave<T>(map: Map<string, Set<T>>, room: string, set: Set<T>, member: T): void {
  set.delete(member);
  if (set.size === 0 && map.get(room) === set) map.delete(room);
}
