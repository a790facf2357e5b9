/** Default of CHAT_NATS_FORK_CONFIRM_MS: longer than a stream leader election (4–9 s in nats-server). */
export const DEFAULT_FORK_CONFIRM_MS = 15_000;

/**
 * How long the stream may show less than this node applied before that counts as a fork
 * (CHAT_NATS_FORK_CONFIRM_MS). One such view is not final: while a stream has no leader,
 * nats-server lets any replica answer $JS.API.STREAM.INFO from its own store
 * (jsStreamInfoRequest, isGroupLeaderless), and a replica may not have applied the last committed
 * records yet — it learns the commit index from the next append or heartbeat of the leader that just
 * died, and applies them once it or another replica leads. Raft keeps every committed record in the
 * next leader's log, so such a shortfall ends within an election; one that lasts the whole window is a
 * stream that really lost records. Meanwhile the verifier holds writes and applying, so waiting builds
 * nothing on a stream that may have lost them.
 *
 * The window opens at the first view showing a shortfall and closes at the first that holds what this
 * node applied; `windowMs` 0 makes the first view final. Past the window, the guard still waits for a
 * view that names a stream leader: a leaderless replica's answer never confirms a fork.
 */
export class ShortfallWindow {
  private since: number | undefined;

  constructor(
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stream showed a shortfall now: how long it has, and whether that is the whole window. */
  observe(): { readonly confirmed: boolean; readonly forMs: number } {
    const now = this.now();
    this.since ??= now;
    const forMs = now - this.since;
    return { confirmed: forMs >= this.windowMs, forMs };
  }

  /** The stream showed it holds what this node applied: a later shortfall starts a new window. */
  clear(): void {
    this.since = undefined;
  }

  /** Whether a shortfall is being confirmed right now. */
  get open(): boolean {
    return this.since !== undefined;
  }
}
