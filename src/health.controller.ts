import { Controller, Get, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';

/** GET /healthz: liveness for load balancers and the README's quick start. Never rate limited. */
@Controller()
export class HealthController {
  @Get('healthz')
  health(@Res() res: FastifyReply): void {
    res
      .code(200)
      .header('content-type', 'text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send('ok\n');
  }
}
