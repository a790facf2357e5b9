import { Inject, Injectable } from '@nestjs/common';
import { ServerResponse } from 'node:http';
import { StreamSlots } from '../../access/stream-slots';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { ChangeNotifier } from '../../projections/change-notifier';
import { RoomCursor } from '../cursor/room-cursors';
import { RoomSteps } from '../room-steps';
import { RoomStream } from './room-stream';
import { SseSink } from './sse-sink';
import { StreamRegistry } from './stream-registry';

/** A stream about to open: its slot is held, its response not written yet. */
export interface PendingStream {
  /** Writes the headers and the first events, and subscribes the stream to its rooms. */
  open(res: ServerResponse, headers: Record<string, string | number | readonly string[]>): void;
  /** The request ended before the stream opened (a HEAD, an error): hands the slot back. */
  abandon(): void;
}

/**
 * Opens event streams: takes a stream slot for the client (429 past a cap, before anything is
 * written), resolves the cursors, and once the route hands over the raw response, wires the stream to
 * the change notifier and the registry. Whatever ends the stream (client gone, slow consumer, stall,
 * shutdown) unsubscribes it and gives the slot back, once.
 */
@Injectable()
export class StreamService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly steps: RoomSteps,
    private readonly notifier: ChangeNotifier,
    private readonly slots: StreamSlots,
    private readonly registry: StreamRegistry,
  ) {}

  prepare(cursors: readonly RoomCursor[], client: string): PendingStream {
    const slot = this.slots.take(client);
    return {
      abandon: () => slot.release(),
      open: (res, headers) => {
        res.writeHead(200, headers as Record<string, string | number | string[]>);
        const positions = cursors.map((cursor) => this.steps.start(cursor));
        let unsubscribe = (): void => undefined;
        const stream = new RoomStream(
          new SseSink(res),
          this.steps,
          positions,
          {
            bufferBytes: this.config.streamBufferKb * 1024,
            heartbeatSeconds: this.config.streamHeartbeatSeconds,
            stallMs: (this.config.sendDeadlineSeconds * 1000) / 2,
          },
          () => {
            unsubscribe();
            slot.release();
            this.registry.delete(stream);
          },
        );
        unsubscribe = this.notifier.listen(stream.rooms, stream);
        this.registry.add(stream);
        stream.start(positions.map((p) => this.steps.state(p.room)));
      },
    };
  }
}
