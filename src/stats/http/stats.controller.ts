import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { WaitSlots } from '../../access/wait-slots';
import { RouteNotFoundError } from '../../common/errors/route-not-found.error';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { NotesProjection } from '../../notes/notes.projection';
import { RoomsProjection } from '../../rooms/rooms.projection';
import { statsTokenMatches } from '../stats-token';
import { nameClasses, RoomClass } from '../../common/names';
import { ServiceMetrics } from '../../metrics/service-metrics';

/**
 * GET /stats (contract §15.6): operator aggregates, no names. Answered only when CHAT_STATS_TOKEN is
 * set and `X-Stats-Token` equals it; otherwise the exact 404 route-map body (the error filter renders
 * it), so the route's existence is not revealed. Never rate limited; pretty-printed with a 1-space
 * indent like the other published JSON documents (contract §1.3).
 */
@Controller()
export class StatsController {
  private readonly startedAt = Date.now();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rooms: RoomsProjection,
    private readonly notes: NotesProjection,
    private readonly waits: WaitSlots,
    private readonly metrics: ServiceMetrics,
  ) {}

  /** Live rooms per class (§3.2; a room of several classes counts in each); `plain` has none. */
  private roomsByClass(): Record<RoomClass | 'plain', number> {
    const counts = { plain: 0, p: 0, mb: 0, d: 0, e: 0 };
    for (const meta of this.rooms.liveMetas()) {
      const classes = nameClasses(meta.name);
      if (classes.size === 0) counts.plain++;
      for (const cls of classes) counts[cls]++;
    }
    return counts;
  }

  @Get('stats')
  stats(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    if (!statsTokenMatches(this.config.statsToken, request.headers['x-stats-token'])) {
      throw new RouteNotFoundError();
    }
    const body = {
      rooms: { live: this.rooms.liveRooms, bytes: this.rooms.liveRoomBytes, by_class: this.roomsByClass() },
      notes: { count: this.notes.totalNotes, bytes: this.notes.totalBytes },
      long_polls: { parked: this.waits.inUse, clients: this.waits.clients },
      // Lifetime request counters of this process (the same hook that feeds /metrics).
      requests: { ...this.metrics.lifetime },
      uptime_seconds: Math.floor((Date.now() - this.startedAt) / 1000),
      scope: 'per_worker',
      workers: 1,
      capacity_limits: {
        max_rooms: this.config.maxRooms,
        room_bytes_total: this.config.roomBytesTotal,
        max_waiters_total: this.config.maxWaitersTotal,
      },
      client_identity:
        this.config.clientIpHeader === '' ? 'socket peer' : `header ${this.config.clientIpHeader}`,
    };
    reply
      .code(200)
      .header('content-type', 'application/json')
      .header('cache-control', 'no-store')
      .send(Buffer.from(`${JSON.stringify(body, null, 1)}\n`, 'utf8'));
  }
}
