import { ClientRequest, IncomingMessage, request } from 'node:http';

/** One server-sent event as EventSource would dispatch it. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  /** The id field of this event, or undefined when it carried none. */
  readonly id: string | undefined;
}

/**
 * A minimal text/event-stream client over node:http for tests that need what EventSource hides: the
 * status and headers, every event in order, and cutting the connection at any moment (`cut()`
 * destroys the socket, as a dropped network would). Parses the format per WHATWG HTML §9.2.6.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  status = 0;
  headers: IncomingMessage['headers'] = {};
  ended = false;
  private req: ClientRequest | undefined;
  private res: IncomingMessage | undefined;
  private buffer = '';
  private waiters: Array<() => void> = [];
  private fields: { event?: string; data: string[]; id?: string } = { data: [] };

  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        client.res = res;
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => client.feed(chunk));
        res.on('end', () => client.finish());
        res.on('close', () => client.finish());
        res.on('error', () => client.finish());
        resolve(client);
      });
      client.req = req;
      req.on('error', (error) => {
        client.finish();
        reject(error);
      });
      req.end();
    });
  }

  /** The response body so far when it is not a stream (a refusal). */
  async text(): Promise<string> {
    await this.until(() => this.ended);
    return this.buffer;
  }

  /** Resolves once `predicate` holds (checked after every chunk), or rejects after `timeoutMs`. */
  until(predicate: () => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`SseClient: ${what} not met within ${timeoutMs} ms (${this.events.length} events)`));
      }, timeoutMs);
      const check = (): void => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  /** Drops the connection at once (no FIN handshake from the client's side: the socket is destroyed). */
  cut(): void {
    this.req?.destroy();
    this.res?.destroy();
  }

  /** Stops reading: the socket's receive buffer fills and the server's writes back up. */
  pause(): void {
    this.res?.pause();
  }

  resume(): void {
    this.res?.resume();
  }

  messages(): SseEvent[] {
    return this.events.filter((e) => e.event === 'message');
  }

  private feed(chunk: string): void {
    if (this.status !== 200) {
      this.buffer += chunk;
      return this.notify();
    }
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, newline);
      const width = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      this.buffer = this.buffer.slice(newline + width);
      this.line(line);
    }
    this.notify();
  }

  private line(line: string): void {
    if (line === '') {
      if (this.fields.data.length > 0) {
        this.events.push({
          event: this.fields.event ?? 'message',
          data: this.fields.data.join('\n'),
          id: this.fields.id,
        });
      }
      this.fields = { data: [] };
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'event') this.fields.event = value;
    else if (name === 'data') this.fields.data.push(value);
    else if (name === 'id' && !value.includes('\0')) this.fields.id = value;
  }

  private finish(): void {
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
