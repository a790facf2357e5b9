import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { parseLimit, parseWait } from '../rooms/http/room-query';
import { parseCursors } from '../streams/cursor/room-cursors';
import { renderWatchTextBytes } from '../streams/http/watch-text.renderer';
import { WatchService } from '../streams/watch/watch.service';
import { ToolRegistrar } from './tool-registrar';

/**
 * wait_for_messages (issue 28): GET /watch as a tool — one wait over many rooms, each with its own
 * cursor, for the price of one read token and one wait slot. The answer is the route's text, whose
 * `next:` line carries the cursor to pass back as `rooms`.
 */
@Injectable()
export class WatchTools {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly watcher: WatchService,
  ) {}

  register(tools: ToolRegistrar): void {
    tools.tool(
      'wait_for_messages',
      {
        rooms: z
          .string()
          .describe(
            'Comma-separated <room>, <room>:<since> or <room>:<since>:<generation> entries (since: the last seq ' +
              'you saw); pass back the cursor from the previous answer unchanged.',
          ),
        seconds: z
          .number()
          .default(10)
          .describe('How long to wait for something new (clamped to the ceiling).'),
        limit: z
          .number()
          .int()
          .optional()
          .describe('Messages in the answer, shared by the rooms (default 50, at most 200).'),
      },
      async (a, caller) => {
        const view = await this.watcher.watch({
          cursors: parseCursors('rooms', a.rooms, this.config.watchMaxRooms),
          limit: parseLimit(a.limit === undefined ? undefined : String(a.limit)),
          wait: parseWait(String(a.seconds), this.config.maxWait),
          signal: caller.signal,
          client: caller.client,
        });
        return renderWatchTextBytes(view, []).toString('utf8');
      },
    );
  }
}
