import { connect, Socket } from 'node:net';

/** A raw TCP connection to `url` (from `localAddress` when given), resolved once connected. */
export function openSocket(url: string, localAddress?: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes (or `ms` pass), and whether the socket closed. */
export function collect(socket: Socket, ms: number): Promise<{ text: string; closed: boolean }> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ text, closed: false }), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

/** Resolves true when the server closes the socket within `ms`. */
export function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  return collect(socket, ms).then((result) => result.closed);
}
