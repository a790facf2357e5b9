import { RoomMeta } from './read-side/room-meta';

export interface ReapPolicy {
  readonly retentionSeconds: number;
  readonly stillbornSeconds: number;
}

/**
 * Contract §9.1: a room is reaped after `retentionSeconds` (7 days) without a write, or after the
 * shorter stillborn window when it still holds at most one record. Reads never refresh the timer.
 */
export function isReapable(meta: RoomMeta, nowMicros: number, policy: ReapPolicy): boolean {
  if (!meta.exists) return false;
  const idleSeconds = (nowMicros - meta.lastWriteAt) / 1e6;
  if (idleSeconds >= policy.retentionSeconds) return true;
  return meta.records <= 1 && idleSeconds >= policy.stillbornSeconds;
}
