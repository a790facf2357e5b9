import { Controller, Get, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { HealthReport, ServiceHealth } from './projections/service-health';

/**
 * GET /healthz (liveness) and GET /readyz (readiness), for load balancers, supervisors and
 * Kubernetes probes. Never rate limited. Healthy: 200 with a one-word body (`ok`, the reference's,
 * and `ready`). Otherwise 503 and one line per problem, so an operator sees why. Every reply carries
 * `X-Projection-Lag`: committed log records not yet in the read models. What each one checks is in
 * ServiceHealth and docs/operations.md.
 */
@Controller()
export class HealthController {
  constructor(private readonly health: ServiceHealth) {}

  @Get('healthz')
  healthz(@Res() res: FastifyReply): void {
    send(res, this.health.report(), { ok: 'ok', not: 'unhealthy' });
  }

  @Get('readyz')
  readyz(@Res() res: FastifyReply): void {
    send(res, this.health.readiness(), { ok: 'ready', not: 'not ready' });
  }
}

function send(res: FastifyReply, report: HealthReport, words: { ok: string; not: string }): void {
  const { projectionLag, problems } = report;
  res
    .code(problems.length === 0 ? 200 : 503)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('x-projection-lag', String(projectionLag))
    .send(
      problems.length === 0
        ? `${words.ok}\n`
        : `503 ${words.not}:\n${problems.map((p) => `- ${p}\n`).join('')}`,
    );
}
