import { jetstream, JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { AppendChains } from './append-chains';
import { ChainIoParts, natsChainIo } from './nats-chain-io';
import { NatsSnapshotStore } from './nats-snapshot-store';
import { ScopeHeads } from './scope-heads';
import { StreamTail, TailRecord } from './stream-tail';
import { StreamVerifier } from './stream-verifier';
import { StreamPurge } from './stream-purge';
import { TailWatchdog } from './tail-watchdog';

/** What an open JetStreamEventLog holds: its connection and the parts wired on it. */
export interface StreamSession {
  readonly nc: NatsConnection;
  readonly jsm: JetStreamManager;
  readonly tail: StreamTail;
  readonly chains: AppendChains;
  readonly verifier: StreamVerifier;
  readonly watchdog: TailWatchdog;
  readonly snapshots: NatsSnapshotStore;
  readonly purge: StreamPurge;
}

export interface SessionParts extends ChainIoParts {
  readonly snapshots: NatsSnapshotStore;
  readonly purge: StreamPurge;
  readonly heads: ScopeHeads;
  /** The stream's last sequence at open: the tail starts after it, the guard adopts its record. */
  readonly lastSeq: number;
  /** Records the verifier let through, in stream order. */
  readonly apply: (records: readonly TailRecord[]) => void;
}

/**
 * Wires the verifier, the tail, the append chains and the watchdog on an opened stream, in the order
 * that keeps the guard ahead of everything: the head this node starts from is adopted before the tail
 * delivers, every delivery passes the verifier, and a stream leader election starts a verification.
 * The watchdog is returned unstarted (the log starts it once it holds the session).
 */
export async function openStreamSession(parts: SessionParts): Promise<StreamSession> {
  const { nc, jsm, options } = parts;
  const warn = (message: string) => options.logger?.warn(message);
  const verifier = new StreamVerifier({
    jsm,
    stream: options.stream,
    guard: parts.guard,
    floor: parts.floor,
    release: (held) => parts.apply(held),
    warn,
  });
  await verifier.adoptHead(parts.lastSeq);
  const tail = new StreamTail({
    from: parts.lastSeq,
    js: jetstream(nc, { timeout: options.timeoutMs }),
    stream: options.stream,
    layout: parts.layout,
    deliver: (records) => verifier.deliver(records),
    warn,
    reset: (why) => verifier.disrupted(why),
    openDeadlineMs: options.timeoutMs,
  });
  await tail.start();
  const chains = new AppendChains(parts.heads, natsChainIo(parts));
  const watchdog = new TailWatchdog(tail, () => verifier.inspect());
  nc.subscribe(`$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED.${options.stream}`, {
    callback: () => verifier.disrupted('stream leader elected'),
  });
  return { nc, jsm, tail, chains, verifier, watchdog, snapshots: parts.snapshots, purge: parts.purge };
}
