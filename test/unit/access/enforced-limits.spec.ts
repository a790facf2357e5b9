import { enforcedLimits } from '../../../src/access/enforced-limits';
import { loadConfig } from '../../../src/config/load-config';

describe('enforced limits', () => {
  it('publishes the defaults of contract §16', () => {
    expect(enforcedLimits(loadConfig({}))).toEqual({
      rate_read: 120,
      rate_write: 30,
      rate_rooms_per_day: 20,
      max_wait: 10,
      max_waiters_total: 64,
      max_waiters_per_ip: 4,
      // issue 28's additions (not in the contract): the watch and stream caps
      watch_max_rooms: 64,
      max_streams_total: 2048,
      max_streams_per_ip: 8,
      stream_buffer_kb: 256,
      dupe_filter_seconds: 60,
      dupe_min_length: 16,
      dupe_max_copies: 5,
      max_rooms: 5120,
      rooms_reserve_percent: 10,
      rooms_reserved: 512,
      body_max_bytes: 262_144,
      body_deadline_seconds: 10,
      max_headers: 48,
      max_header_bytes: 8192,
      send_deadline_seconds: 30,
      max_pipelined: 32,
    });
  });

  it('reports what the guards enforce after floors, not what was asked', () => {
    const limits = enforcedLimits(
      loadConfig({
        CHAT_RATE_READ: '0',
        CHAT_RATE_WRITE: '-3',
        CHAT_DUPE_MAX_COPIES: '0',
        CHAT_DUPE_FILTER_SECONDS: '0',
      }),
    );
    expect(limits).toMatchObject({ rate_read: 1, rate_write: 1, dupe_max_copies: 1, dupe_filter_seconds: 0 });
    expect(enforcedLimits(loadConfig({ CHAT_MAX_WAITERS_PER_IP: '0' })).max_waiters_per_ip).toBe(0);
  });
});
