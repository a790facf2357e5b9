import { Controller, Get, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { ServiceHealth } from './projections/service-health';

/**
 * GET /healthz: liveness for load balancers and the README's quick start. Never rate limited.
 * Healthy: 200 `ok` (the reference's body). Otherwise 503 and one line per problem, so a supervisor
 * sees why writes are refused (failed projection, full or read-only disk, failing checkpoints).
 * Every reply carries `X-Projection-Lag`: committed log records not yet in the read models.
 */
@Controller()
export class HealthController {
  constructor(private readonly health: ServiceHealth) {}

  @Get('healthz')
  healthz(@Res() res: FastifyReply): void {
    const { projectionLag, problems } = this.health.report();
    res
      .code(problems.length === 0 ? 200 : 503)
      .header('content-type', 'text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('x-projection-lag', String(projectionLag))
      .send(problems.length === 0 ? 'ok\n' : `503 unhealthy:\n${problems.map((p) => `- ${p}\n`).join('')}`);
  }
}
