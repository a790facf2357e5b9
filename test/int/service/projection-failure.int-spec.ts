import { ChatEvent } from '../../../src/events/chat-event';
import { Projection, PROJECTIONS } from '../../../src/projections/projection';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SegmentedEventLog } from '../../../src/log/file/segmented-event-log';
import { replay } from '../../../src/tools/replay';
import { TestApp } from '../../support/test-app';

/**
 * A projection that throws on one chosen event (issue 11 item 3, issue 18 item 2). The hook is a test
 * double pushed into the live PROJECTIONS list: production config has no way to add one.
 */
function throwingOn(text: string): Projection {
  return {
    name: 'throws-on-chosen-event',
    apply(event: ChatEvent) {
      if (event.type === 'message.appended' && event.record.includes(`"${text}"`)) {
        throw new Error('EMFILE: too many open files');
      }
    },
    snapshot: () => null,
    restore: () => undefined,
  };
}

/** Fails the test instead of hanging when a request never answers. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<T>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a projection that throws while applying', () => {
  let app: TestApp;
  beforeEach(async () => (app = await TestApp.start()));
  afterEach(() => app.close());

  it('answers that write 503 stored_not_applied, refuses every later one with 503 naming offset and event type; reads keep working', async () => {
    (app.app.get(PROJECTIONS, { strict: false }) as Projection[]).push(throwingOn('boom'));
    expect((await app.getPath('/r/apply/say/a/fine')).status).toBe(200);

    const failed = await within(5000, app.getPath('/r/apply/say/a/boom'));
    expect(failed.status).toBe(503);
    // That write is in the log: its reply says so and warns against a resend (issue 24 item 4).
    expect(failed.body).toMatch(
      /^503 the write was stored \(log offset \d+\) but the read models could not apply it \(projection failed at offset \d+ \(message\.appended\): EMFILE/,
    );
    expect(failed.body).toContain('Do not resend it');

    for (const url of ['/r/apply/say/a/later', '/r/other/say/b/later']) {
      const later = await within(5000, app.getPath(url));
      expect(later.status).toBe(503);
      expect(later.body).toContain('message.appended event at offset');
    }
    const notes = await within(5000, app.post('/kv/apply-ns/k', { value: 'v' }));
    expect(notes.status).toBe(503);

    const read = await app.getPath('/r/apply?format=json');
    expect(read.status).toBe(200);
    expect(read.body).toContain('"fine"');

    const health = await app.getPath('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toMatch(/projection failed at offset \d+ \(message\.appended\): EMFILE/);
    // Out of rotation too, for the same reason (readiness includes every liveness problem).
    const ready = await app.getPath('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatch(
      /^503 not ready:\n- projection failed at offset \d+ \(message\.appended\): EMFILE/,
    );
  });

  it('a restart replays the logged record and takes writes again', async () => {
    (app.app.get(PROJECTIONS, { strict: false }) as Projection[]).push(throwingOn('boom'));
    expect((await app.getPath('/r/apply/say/a/boom')).status).toBe(503);
    await app.restart();
    expect((await app.getPath('/healthz')).body).toBe('ok\n');
    expect((await app.getPath('/readyz')).body).toBe('ready\n');
    expect((await app.getPath('/r/apply/say/a/after')).status).toBe(200);
  });

  it('a record that cannot be applied stops the start-up replay and the replay tool at the same offset', async () => {
    expect((await app.getPath('/r/apply/say/a/fine')).status).toBe(200);
    await app.app.close();
    const log = new SegmentedEventLog({
      dir: join(app.root, 'log'),
      logger: { log: () => {}, warn: () => {} },
    });
    await log.open();
    const { first } = await log.append([Buffer.from('{"not":"an event"')]);
    await log.close();

    const expected = `projection failed at offset ${first} (undecodable)`;
    await expect(TestApp.start({}, undefined, app.root)).rejects.toThrow(
      `start-up replay stopped: ${expected}`,
    );
    const target = join(mkdtempSync(join(tmpdir(), 'agent-chat-replay-fail-')), 'new');
    try {
      await expect(replay({ source: app.root, target })).rejects.toThrow(`replay stopped: ${expected}`);
    } finally {
      rmSync(join(target, '..'), { recursive: true, force: true });
    }
    app = await TestApp.start(); // afterEach closes it
  });
});
