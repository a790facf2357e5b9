import { Socket } from 'node:net';
import { clientShare } from '../../../src/http/connections/connection-limits';
import { ConnectionTable } from '../../../src/http/connections/connection-table';
import { sendBacklog, stalledConnections } from '../../../src/http/connections/send-deadline';

/** A stand-in for a socket: only what the table and the deadline read. */
function fakeSocket(): Socket & { writableLength: number; bytesWritten: number } {
  return { writableLength: 0, bytesWritten: 0 } as unknown as Socket & {
    writableLength: number;
    bytesWritten: number;
  };
}

describe('client shares of the connection total', () => {
  const caps = { maxConnections: 18_720, maxConnectionsPerClient: 256 };

  it('is the whole per-client cap below half the total, then shrinks with what is free, to one', () => {
    expect(clientShare(caps, 0)).toBe(256);
    expect(clientShare(caps, 9359)).toBe(256);
    expect(clientShare(caps, 9360)).toBe(256);
    expect(clientShare(caps, 14_040)).toBe(128);
    expect(clientShare(caps, 18_700)).toBe(1);
    expect(clientShare(caps, 18_720)).toBe(1);
    expect(clientShare({ ...caps, maxConnectionsPerClient: Infinity }, 18_720)).toBe(Infinity);
    // a per-client cap above half the total is held to half: one address never takes the pool
    expect(clientShare({ maxConnections: 64, maxConnectionsPerClient: 256 }, 0)).toBe(32);
    expect(clientShare({ maxConnections: 64, maxConnectionsPerClient: 256 }, 48)).toBe(16);
  });

  it('needs hundreds of addresses to fill the total, where 74 did before', () => {
    let open = 0;
    let addresses = 0;
    while (open < caps.maxConnections) {
      addresses++;
      for (let mine = 0; open < caps.maxConnections && mine < clientShare(caps, open); mine++) open++;
    }
    expect(addresses).toBeGreaterThan(250);
  });
});

describe('the connection table', () => {
  it('counts per client and keeps idle connections in the order they became idle', () => {
    const table = new ConnectionTable();
    const [a, b, c] = [fakeSocket(), fakeSocket(), fakeSocket()];
    const ta = table.add(a, '10.0.0.1', 1);
    const tb = table.add(b, '10.0.0.1', 2);
    const tc = table.add(c, '10.0.0.2', 3);
    expect([table.size, table.held('10.0.0.1'), table.held('10.0.0.2')]).toEqual([3, 2, 1]);
    expect(table.longestIdle()).toBe(ta);
    table.requestStarted(ta);
    table.requestStarted(ta);
    expect(table.longestIdle()).toBe(tb);
    table.requestEnded(ta, 4);
    expect(table.idleCount).toBe(2); // one request still in flight on a
    table.requestEnded(ta, 5);
    table.remove(tb);
    table.remove(tb);
    expect(table.longestIdle()).toBe(tc);
    expect([table.size, table.held('10.0.0.1'), table.idleCount]).toEqual([2, 1, 2]);
    table.remove(ta);
    table.remove(tc);
    expect([table.size, table.held('10.0.0.1'), table.held('10.0.0.2'), table.idleCount]).toEqual([
      0, 0, 0, 0,
    ]);
    table.requestEnded(ta, 6); // a reply closing after its connection: nothing comes back
    expect(table.idleCount).toBe(0);
  });
});

describe('the send deadline', () => {
  it('flags a connection only when the bytes pending at one look are still not accepted a deadline later', () => {
    const table = new ConnectionTable();
    const socket = fakeSocket();
    const tracked = table.add(socket, 'c', 0);
    expect(stalledConnections(table, 0, 3000)).toEqual([]);
    // 1 MB handed over, 600 KB not accepted: the clock starts
    socket.bytesWritten = 1_000_000;
    socket.writableLength = 600_000;
    expect(stalledConnections(table, 1000, 3000)).toEqual([]);
    // those bytes drained while 900 KB more wait: the clock restarts at this look
    socket.bytesWritten = 2_000_000;
    socket.writableLength = 900_000;
    expect(stalledConnections(table, 2500, 3000)).toEqual([]);
    expect(sendBacklog(socket, 4000)).toEqual({ pendingBytes: 900_000, stalledMs: 1500 });
    // some of the new bytes moved, not all: still stalled since 2500
    socket.writableLength = 100_000;
    expect(stalledConnections(table, 5000, 3000)).toEqual([]);
    expect(stalledConnections(table, 5500, 3000)).toEqual([tracked]);
    // everything drained: no stall, whatever the age
    socket.writableLength = 0;
    expect(stalledConnections(table, 60_000, 3000)).toEqual([]);
    expect(sendBacklog(socket, 60_000)).toEqual({ pendingBytes: 0, stalledMs: 0 });
  });
});
