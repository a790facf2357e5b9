import { execFileSync } from 'node:child_process';
import {
  assertHeapFits,
  checkHeap,
  HEAP_HEADROOM_MB,
  NOTE_HEAP_FACTOR,
  YOUNG_GENERATION_MB,
} from '../../../src/config/heap-budget';
import { buildConfig, ConfigError } from '../../../src/config/load-config';

const MIB = 1024 * 1024;

describe('heap budget check', () => {
  const budgets = { hotTailMb: 256, replyCacheMb: 64, noteBytesMb: 64, heapMb: 1024 };

  it('accepts the limit npm start sets for the default budgets (V8 rounds it up a little)', () => {
    expect(checkHeap(budgets, 1072 * MIB)).toEqual({});
  });

  it("accepts the limit V8 really reports for npm start's flags (heap plus the 32 MiB semi-spaces)", () => {
    const reported = execFileSync(process.execPath, [
      '--max-old-space-size=1024',
      '--max-semi-space-size=32',
      '-e',
      'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))',
    ]).toString();
    expect(Number(reported)).toBe((1024 + YOUNG_GENERATION_MB) * MIB);
    expect(checkHeap(budgets, Number(reported))).toEqual({});
  });

  it('refuses a heap that cannot hold the budgets, naming the knobs to change', () => {
    const needed = 256 + 64 + 64 * NOTE_HEAP_FACTOR + HEAP_HEADROOM_MB;
    const check = checkHeap({ ...budgets, heapMb: 512 }, 512 * MIB);
    expect(needed).toBeGreaterThan(512);
    expect(check.error).toContain(`below the ${needed} MiB`);
    expect(check.error).toContain('CHAT_HEAP_MB');
    expect(check.error).toContain('CHAT_HOT_TAIL_MB=256');
  });

  it('warns when node runs with a limit other than CHAT_HEAP_MB (started without npm start)', () => {
    const check = checkHeap(budgets, 4345 * MIB);
    expect(check.error).toBeUndefined();
    expect(check.warning).toContain('--max-old-space-size=1024');
  });

  it('counts the note-byte budget (issue 18): a budget the heap cannot hold refuses to start', () => {
    const check = checkHeap({ ...budgets, noteBytesMb: 512 }, 1072 * MIB);
    expect(check.error).toContain('CHAT_NOTE_BYTES_MB=512');
    expect(() => assertHeapFits(buildConfig({ noteBytesMb: 512 }), 1072 * MIB)).toThrow(ConfigError);
  });

  it('throws a ConfigError at boot for a heap too small for the configured budgets', () => {
    const config = buildConfig({ hotTailMb: 2048 });
    expect(() => assertHeapFits(config, 1072 * MIB)).toThrow(ConfigError);
    expect(assertHeapFits(buildConfig({}), 1072 * MIB)).toBeUndefined();
  });
});
