'use strict';
/**
 * Preloaded into a service process (`NODE_OPTIONS=--require …`) to run it with its wall clock moved
 * forward by AGENT_CHAT_TEST_CLOCK_SHIFT_MS: the service reads time only through SystemClock
 * (performance.timeOrigin + performance.now()), so shifting performance.now moves every timestamp,
 * idle time and expiry it computes, while durations (differences) and timers are unchanged. Lets a
 * test of the real process see rooms reaped, notes reclaimed and e- records expire after hours,
 * by restarting it later in time (test/int/service/lifecycle/lifecycle.system.ts). Test-only: the
 * service has no knob for it.
 */
const shiftMs = Number(process.env.AGENT_CHAT_TEST_CLOCK_SHIFT_MS || '0');
if (!Number.isFinite(shiftMs) || shiftMs < 0) {
  throw new Error(`AGENT_CHAT_TEST_CLOCK_SHIFT_MS must be a non-negative number, got ${shiftMs}`);
}
if (shiftMs > 0) {
  const now = performance.now.bind(performance);
  performance.now = () => now() + shiftMs;
}
