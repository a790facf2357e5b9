import { request } from 'node:http';
import { Socket } from 'node:net';
import { kernelSockets } from '../support/kernel-sockets';
import { openSocket } from '../support/raw-http';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

/** The kernel's number for TIME_WAIT: a closed connection's remembered ports, holding no buffers. */
const TIME_WAIT = 6;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface ConnectionFloodOptions {
  /** Connections the flood asks for, spread evenly over `addresses` (127.0.0.2, .3, …). */
  readonly connections: number;
  readonly addresses: number;
  /** The service's descriptor limit (its connection total is this minus 1,280). */
  readonly openFiles: number;
  /** Newcomer probes (a /healthz and a write each, from an address of its own) spread over `seconds`. */
  readonly probes: number;
  readonly seconds: number;
  readonly log: (line: string) => void;
}

export interface ConnectionFloodFigures {
  readonly asked: number;
  /** Flood connections still open when the probes began. */
  readonly held: number;
  readonly probes: number;
  readonly healthOk: number;
  readonly writeOk: number;
}

/** One GET on a fresh connection from `from`: its status, or 0 when the connection was refused or reset. */
function probe(url: string, path: string, from: string): Promise<number> {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const req = request(
      { host: hostname, port, path, localAddress: from, agent: false, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * Issue 24 item 7, the long form: a flood of idle connections from many addresses against the real
 * service, then newcomers from other addresses asking for /healthz and a write. Before: the flood
 * filled the total and newcomers were reset (19 of 25 in the report). Needs `ulimit -n` above
 * `connections` for this process (the npm script raises it).
 */
export async function runConnectionFlood(options: ConnectionFloodOptions): Promise<ConnectionFloodFigures> {
  const dir = makeTempDir('agent-chat-edge-flood');
  const service = await ServiceProcess.start(
    { CHAT_ROOT: dir.path, CHAT_FSYNC: 'none', CHAT_LOG_LEVEL: 'warn' },
    { openFiles: options.openFiles },
  );
  const sockets: Socket[] = [];
  try {
    const perAddress = Math.ceil(options.connections / options.addresses);
    for (let a = 0; a < options.addresses; a++) {
      const from = `127.0.${2 + Math.floor(a / 250)}.${2 + (a % 250)}`;
      const opened = await Promise.all(
        Array.from({ length: perAddress }, () => openSocket(service.baseUrl, from).catch(() => undefined)),
      );
      for (const socket of opened) {
        if (socket === undefined) continue;
        socket.on('error', () => undefined);
        socket.once('close', () => sockets.splice(sockets.indexOf(socket) >>> 0, 1));
        sockets.push(socket);
      }
      if (a % 10 === 9) options.log(`… ${a + 1} addresses, ${sockets.length} connections open`);
    }
    await pause(500);
    const held = sockets.length;
    let healthOk = 0;
    let writeOk = 0;
    for (let i = 0; i < options.probes; i++) {
      const from = `127.0.200.${1 + (i % 250)}`;
      if ((await probe(service.baseUrl, '/healthz', from)) === 200) healthOk++;
      if ((await probe(service.baseUrl, `/r/flood-probe/say/p/probe%20${i}`, from)) === 200) writeOk++;
      options.log(
        `probe ${i + 1}: health ${healthOk}, writes ${writeOk}; flood connections open ${sockets.length}`,
      );
      await pause((options.seconds * 1000) / options.probes);
    }
    return { asked: perAddress * options.addresses, held, probes: options.probes, healthOk, writeOk };
  } finally {
    for (const socket of sockets.splice(0)) socket.destroy();
    await service.stop();
    dir.remove();
  }
}

export interface SlowReaderOptions {
  readonly readers: number;
  readonly deadlineSeconds: number;
  readonly log: (line: string) => void;
}

export interface SlowReaderFigures {
  readonly readers: number;
  /** The most the kernel held in the server side's send queues at once, in MiB. */
  readonly peakQueuedMiB: number;
  /** What it held `deadlineSeconds + 10` s later, in MiB, and on how many connections (TIME_WAIT aside). */
  readonly finalQueuedMiB: number;
  readonly finalConnections: number;
}

/**
 * Issue 24 item 6, the long form: `readers` clients each ask for ~13 MB of replies and never read,
 * and the kernel's send queues of the service's side are summed every second (/proc/net/tcp). Before:
 * 64 of them pinned ~240 MiB for as long as they stayed. Now: released after the send deadline.
 */
export async function runSlowReaders(options: SlowReaderOptions): Promise<SlowReaderFigures> {
  const dir = makeTempDir('agent-chat-slow-readers');
  const service = await ServiceProcess.start({
    CHAT_ROOT: dir.path,
    CHAT_FSYNC: 'none',
    CHAT_LOG_LEVEL: 'warn',
    CHAT_SEND_DEADLINE_SECONDS: String(options.deadlineSeconds),
  });
  const port = Number(new URL(service.baseUrl).port);
  const readers: Socket[] = [];
  try {
    for (let i = 0; i < 200; i++) {
      const status = await probe(service.baseUrl, `/r/big/say/f/${i}%20${'x'.repeat(4000)}`, '127.0.0.1');
      if (status !== 200) throw new Error(`filling the room: ${status}`);
    }
    for (let i = 0; i < options.readers; i++) {
      const socket = await openSocket(service.baseUrl, `127.0.0.${2 + (i % 200)}`);
      socket.on('error', () => undefined);
      socket.pause();
      socket.write('GET /r/big?limit=200 HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(16));
      readers.push(socket);
    }
    const queued = (): { mib: number; connections: number } => {
      const sockets = kernelSockets(port).filter((socket) => socket.state !== TIME_WAIT);
      return { mib: sockets.reduce((sum, s) => sum + s.sendQueue, 0) / 2 ** 20, connections: sockets.length };
    };
    let peak = 0;
    let last = queued();
    for (let second = 0; second < options.deadlineSeconds + 10; second++) {
      await pause(1000);
      last = queued();
      peak = Math.max(peak, last.mib);
      options.log(`${second + 1} s: ${last.mib.toFixed(1)} MiB queued on ${last.connections} connections`);
    }
    const round = (mib: number): number => Math.round(mib * 10) / 10;
    return {
      readers: options.readers,
      peakQueuedMiB: round(peak),
      finalQueuedMiB: round(last.mib),
      finalConnections: last.connections,
    };
  } finally {
    for (const socket of readers) socket.destroy();
    await service.stop();
    dir.remove();
  }
}
