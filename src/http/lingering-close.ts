import { Socket } from 'node:net';

/** How long, and how many bytes, a closing connection keeps draining the client's unread request. */
export const LINGER_MS = 5000;
export const LINGER_BYTES = 1 << 20;

const ARMED = Symbol('agent-chat.lingering-close');
type Armed = Socket & { [ARMED]?: true };

/**
 * Lingering close (issue 11, as nginx's lingering_close and Apache's lingering close do). A reply sent
 * before the request body was read (413, 408, any refusal) closes the connection; closing it at once
 * while the client is still sending makes the kernel answer the unread bytes with a reset, and the
 * client often sees a broken pipe instead of the reply. So Node's close (`destroySoon`, called once
 * the reply is flushed) is replaced for this socket: send FIN, keep reading and discarding until the
 * client closes its side, `LINGER_BYTES` arrive or `LINGER_MS` pass, then destroy.
 */
export function lingerOnClose(socket: Socket | null | undefined): void {
  const armed = socket as Armed | null | undefined;
  if (!armed || armed[ARMED] || typeof armed.destroySoon !== 'function') return;
  armed[ARMED] = true;
  armed.destroySoon = function lingeringClose(this: Socket): void {
    let drained = 0;
    const stop = (): void => {
      clearTimeout(timer);
      this.destroy();
    };
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    this.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > LINGER_BYTES) stop();
    });
    this.once('end', stop);
    this.once('close', () => clearTimeout(timer));
    this.end();
    this.resume();
  };
}
