import { readFileSync } from 'node:fs';

/** One TCP socket as the kernel lists it in /proc/net/tcp (Linux). */
export interface KernelSocket {
  /** TCP state as the kernel numbers it: 1 ESTABLISHED, 4 FIN_WAIT1, 7 CLOSE, 10 LISTEN… */
  readonly state: number;
  /** Bytes in the send queue: written by the application, not yet acknowledged by the peer. */
  readonly sendQueue: number;
  /** Bytes in the receive queue: arrived, not yet read by the application. */
  readonly receiveQueue: number;
}

function port(address: string): number {
  return parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
}

/** Every connection the kernel lists with local port `localPort` (IPv4 and IPv6), listeners excluded. */
export function kernelSockets(localPort: number): Array<KernelSocket & { readonly remotePort: number }> {
  const found: Array<KernelSocket & { readonly remotePort: number }> = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 5 || port(fields[1]) !== localPort || port(fields[2]) === 0) continue;
      const [send, receive] = fields[4].split(':').map((hex) => parseInt(hex, 16));
      found.push({
        state: parseInt(fields[3], 16),
        sendQueue: send,
        receiveQueue: receive,
        remotePort: port(fields[2]),
      });
    }
  }
  return found;
}

/**
 * The kernel's record of the connection from `localPort` to `remotePort` on loopback, or undefined
 * once the kernel no longer holds it — the proof a closed connection's buffers were released, where an
 * orphan in FIN_WAIT1 would still list its queue.
 */
export function kernelSocket(localPort: number, remotePort: number): KernelSocket | undefined {
  return kernelSockets(localPort).find((socket) => socket.remotePort === remotePort);
}
