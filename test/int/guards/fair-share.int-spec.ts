import { request } from 'node:http';
import { AddressInfo } from 'node:net';
import { WaitSlots } from '../../../src/access/wait-slots';
import { AppConfig } from '../../../src/config/app-config';
import { TestApp } from '../../support/test-app';

interface Answer {
  readonly status: number;
  readonly body: string;
}

/**
 * Issue 18 item 5: shared caps are not taken by a few addresses. Real sockets from several loopback
 * source addresses (127.0.0.x are all local on Linux), and IPv6 identities through the trusted header.
 */
describe('fair shares of the global caps, from several loopback addresses', () => {
  let t: TestApp;
  let port: number;

  async function start(overrides: Partial<AppConfig>): Promise<void> {
    t = await TestApp.start(overrides);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  }
  afterEach(() => t.close());

  function get(path: string, from: string, headers: Record<string, string> = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path, localAddress: from, headers, agent: false },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  async function until(condition: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition not reached in 10 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('keeps long-poll slots for newcomers when two addresses park all they may', async () => {
    // Given 8 slots and 4 per client, and two addresses each asking for 4 parked waits
    await start({ maxWaitersTotal: 8, maxWaitersPerIp: 4, maxWait: 2 });
    const slots = t.get(WaitSlots);
    const first = Array.from({ length: 4 }, () => get('/r/poll?since=0&wait=2', '127.0.0.2'));
    await until(() => slots.inUse === 4);
    const second = Array.from({ length: 4 }, () => get('/r/poll?since=0&wait=2', '127.0.0.3'));
    // Then the second address parks only its first wait (half the pool is kept for first waits)
    const answeredAtOnce = await Promise.all(second.slice(1));
    for (const answer of answeredAtOnce) expect(answer.body).toContain('kept for callers holding none');
    expect(slots.inUse).toBe(5);
    // And a third address still parks (before the fix the two addresses held all 8)
    const third = await get('/r/poll?since=0&wait=1&format=json', '127.0.0.4');
    expect(JSON.parse(third.body).wait_held).toBe(true);
    await Promise.all([...first, second[0]]);
  });

  it('shrinks each address’s room-creation burst with the free rooms, so two cannot fill the cap', async () => {
    // Given 40 rooms and 20 new rooms a day per address
    await start({ maxRooms: 40, rateRoomsPerDay: 20 });
    const createUntilRefused = async (from: string, prefix: string): Promise<[number, Answer]> => {
      for (let i = 0; ; i++) {
        const answer = await get(`/r/${prefix}-${i}/say/a/hi`, from);
        if (answer.status !== 200) return [i, answer];
      }
    };
    // When two addresses create rooms until refused
    const [firstCount, firstRefusal] = await createUntilRefused('127.0.0.2', 'fa');
    const [secondCount] = await createUntilRefused('127.0.0.3', 'fb');
    // Then each took its shrinking share (about 14, then 9; the events room counts too) instead of
    // 20 + 20 = the whole cap
    expect(firstCount).toBeLessThan(15);
    expect(secondCount).toBeLessThan(firstCount);
    expect(firstCount + secondCount).toBeLessThan(25);
    expect(firstRefusal.status).toBe(429);
    expect(firstRefusal.body).toMatch(/this IP has used its fair share: only \d+ of the 40 rooms are free/);
    // And a third address can still create rooms
    expect((await get('/r/fc-0/say/a/hi', '127.0.0.4')).status).toBe(200);
  });

  it('charges every address of an IPv6 /64 to one client', async () => {
    // Given 3 reads a minute per client, named by a trusted header
    await start({ rateRead: 3, clientIpHeader: 'x-client' });
    const from = (address: string) => get('/r/v6?since=0', '127.0.0.1', { 'x-client': address });
    // When four addresses of one /64 read
    const statuses = [];
    const sameSlash64 = [
      '2001:db8:5:6::1',
      '2001:db8:5:6::2',
      '2001:db8:5:6::abcd',
      '2001:db8:5:6:ffff:ffff:ffff:ffff',
    ];
    for (const address of sameSlash64) statuses.push((await from(address)).status);
    // Then the fourth is refused: one /64 is one client; another /64 is not affected
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await from('2001:db8:5:7::1')).status).toBe(200);
  });
});
