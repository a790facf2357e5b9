import { request } from 'node:http';
import { AddressInfo } from 'node:net';
import { TestApp } from '../../support/test-app';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * Issue 24 item 7: 109 addresses filled a 600-room cap, and nobody could start a room until the reaper
 * freed some — up to a day. The last part of the cap is now kept for networks (/24) holding no room.
 * Real HTTP from distinct loopback source addresses and networks (127.0.0.0/8 is all local on Linux).
 */
describe('the room cap keeps a reserve for newcomers', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // 40 rooms, the last 10 (25 %) kept for addresses holding none; 20 new rooms a day per address
    t = await TestApp.start({
      maxRooms: 40,
      roomsReservePercent: 25,
      rateRoomsPerDay: 20,
      reapEverySeconds: 600,
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  function get(path: string, from: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, localAddress: from, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  const create = (room: string, from: string): Promise<Answer> => get(`/r/${room}/say/a/hello`, from);

  it('keeps the reserve from networks holding rooms, gives other networks one each, then the cap’s 400', async () => {
    // Given addresses 127.0.0.2, .3, … (one /24) creating rooms until one is refused for the reserve
    let reserveRefusal: Answer | undefined;
    let holders = 0;
    for (let a = 2; reserveRefusal === undefined && a < 60; a++) {
      holders++;
      for (let i = 0; ; i++) {
        const answer = await create(`h${a}-${i}`, `127.0.0.${a}`);
        if (answer.status === 200) continue;
        expect(answer.status).toBe(429); // the shares and the reserve refuse; the cap itself is never reached
        if (answer.body.includes('kept for networks that hold none')) reserveRefusal = answer;
        break;
      }
    }
    // Then the refusal names the network, rooms created from it, the reserve, and when to retry
    expect(reserveRefusal).toBeDefined();
    const lines = reserveRefusal!.body.split('\n');
    expect(lines[0]).toMatch(
      /^429 room-creation budget spent: \/r\/h\d+-\d+ does not exist yet, and your network \(127\.0\.0\.0\/24\) already holds rooms created from it \(\/r\/h2-0, \/r\/h2-1, \/r\/h2-2\)/,
    );
    expect(lines[0]).toMatch(
      /only \d+ of the 40 rooms are free, and the last 10 are kept for networks that hold none/,
    );
    expect(reserveRefusal!.headers['retry-after']).toBe('600');
    expect(lines[1]).toMatch(/^retry after: 600s — /);
    // And however many more addresses that network brings, none gets a reserved room
    for (let a = 100; a < 110; a++) expect((await create(`more-${a}`, `127.0.0.${a}`)).status).toBe(429);
    // And a holder still writes to the rooms it has
    expect((await get('/r/h2-0/say/a/still%20writing', '127.0.0.2')).status).toBe(200);

    // When addresses of other networks arrive, each network creates one room from the reserve
    const newcomers: number[] = [];
    for (let n = 1; n < 30; n++) {
      const first = await create(`n${n}`, `127.0.${n}.1`);
      if (first.status !== 200) {
        // Then once the reserve is gone, the room cap's own 400 answers everyone
        expect(first.status).toBe(400);
        expect(first.body).toMatch(/^400 room limit reached \(40 is the cap/);
        break;
      }
      newcomers.push(n);
      const neighbour = await create(`n${n}-neighbour`, `127.0.${n}.2`);
      if (neighbour.status === 400) break; // the newcomer took the very last room
      expect(neighbour.status).toBe(429);
      expect(neighbour.body).toContain(
        `your network (127.0.${n}.0/24) already holds rooms created from it (/r/n${n})`,
      );
    }
    expect(newcomers.length).toBe(10); // the whole reserve went to other networks, one each
    expect(holders).toBeGreaterThan(2);
    expect((await create('late', '127.0.200.1')).status).toBe(400);
  }, 60_000);
});
