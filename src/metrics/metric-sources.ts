import { INestApplication } from '@nestjs/common';
import { Server } from 'node:http';
import { StreamSlots } from '../access/stream-slots';
import { WaitSlots } from '../access/wait-slots';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { NotesProjection } from '../notes/notes.projection';
import { CheckpointService } from '../projections/checkpoint.service';
import { ProjectionRunner } from '../projections/projection-runner';
import { RoomsProjection } from '../rooms/rooms.projection';
import { ConnectionGovernor } from '../http/connections/connection-governor';
import { MetricSources, ServiceMetrics } from './service-metrics';
import { EventLoopWatchService } from '../runtime/event-loop-watch.service';
import { StreamForkedError } from '../log/nats/nats-log.errors';

/** Points the scrape-time gauges at the live read models of a built application. */
export function attachMetricSources(app: INestApplication): void {
  const log = app.get<EventLog>(EVENT_LOG);
  const runner = app.get(ProjectionRunner);
  const checkpoints = app.get(CheckpointService);
  const slots = app.get(WaitSlots);
  const streams = app.get(StreamSlots);
  const rooms = app.get(RoomsProjection);
  const notes = app.get(NotesProjection);
  const loop = app.get(EventLoopWatchService);
  const governor = ConnectionGovernor.of(app.getHttpServer() as Server);
  const startedAt = Date.now(); // the state at start was a checkpoint plus a replay
  const sources: MetricSources = {
    projectionLag: () => Math.max(0, log.committedHead() - runner.nextOffset),
    checkpointAgeSeconds: () => (Date.now() - (checkpoints.lastCheckpointAt ?? startedAt)) / 1000,
    parkedLongPolls: () => slots.inUse,
    openStreams: () => streams.inUse,
    rooms: () => rooms.liveRooms,
    notes: () => notes.totalNotes,
    noteBytes: () => notes.totalBytes,
    // A lost NATS connection is `unavailable` (readiness), a poisoned or forked log a `writeFault`.
    logWritable: () => ((log.writeFault?.() ?? log.unavailable?.()) === undefined ? 1 : 0),
    logBacklog: () => log.backlog?.() ?? 0,
    eventLoopStalls: () => loop.stalls,
    archiveFailures: () => log.archiveFailures?.() ?? 0,
    logForked: () => (log.writeFault?.() instanceof StreamForkedError ? 1 : 0),
    connections: () =>
      governor === undefined
        ? null
        : {
            open: governor.open,
            idle: governor.idle,
            closed: {
              share: governor.counts.refusedShare,
              full: governor.counts.refusedFull,
              shed_idle: governor.counts.shedIdle,
              send_deadline: governor.counts.sendDeadline,
              pipelined: governor.counts.pipelined,
            },
          },
  };
  app.get(ServiceMetrics).attach(sources);
}
