import { Global, Module } from '@nestjs/common';
import { MetricsListener } from './metrics-listener';
import { ServiceMetrics } from './service-metrics';

/** The process's metrics registry, for every module that counts something, and its listener. */
@Global()
@Module({
  providers: [{ provide: ServiceMetrics, useFactory: () => new ServiceMetrics() }, MetricsListener],
  exports: [ServiceMetrics],
})
export class MetricsModule {}
