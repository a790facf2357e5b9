import { APP_GUARD } from '@nestjs/core';
import { GLOBAL_GUARDS } from '../../../src/access/global-guards';
import { RateLimitGuard } from '../../../src/access/rate-limit.guard';
import { AppModule } from '../../../src/app.module';
import { buildConfig } from '../../../src/config/load-config';

describe('global guards', () => {
  it('run in the one pinned order: the rate token first (contract §12)', () => {
    expect(GLOBAL_GUARDS).toEqual([RateLimitGuard]);
  });

  it('are registered by the composition root in exactly that order', () => {
    const providers = AppModule.forRoot({ config: buildConfig({}) }).providers ?? [];
    const guards = providers
      .map((p) => p as { provide?: unknown; useClass?: unknown })
      .filter((p) => p.provide === APP_GUARD)
      .map((p) => p.useClass);
    expect(guards).toEqual([...GLOBAL_GUARDS]);
  });
});
