import { Inject, Injectable } from '@nestjs/common';
import { RateBuckets } from '../access/rate-buckets.service';
import { RateLimitedError } from '../access/rate-limited.error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { toolBucket } from '../docs/mcp-tool-catalog';

/**
 * Meters POST /mcp (issue 18): every JSON-RPC message in the body spends one read token of the caller,
 * except a `tools/call` of a tool that spends its own route's token (read_room, say, …), so such a
 * call costs what its HTTP route costs and nothing twice. Without this, a 16-connection `tools/list`
 * flood from one address was free and raised every other client's read p50 from ~1.5 ms to 60 ms.
 * An empty bucket is the HTTP 429 with Retry-After, before the SDK sees the body.
 */
@Injectable()
export class McpMeter {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly buckets: RateBuckets,
  ) {}

  charge(client: string, body: unknown): void {
    const messages = Array.isArray(body) ? body : [body];
    for (const message of messages) {
      if (chargesItself(message)) continue;
      const take = this.buckets.take('read', client);
      if (!take.granted) {
        throw new RateLimitedError({
          kind: 'read',
          perMinute: this.buckets.perMinute('read'),
          waitSeconds: take.waitSeconds,
          maxWait: this.config.maxWait,
        });
      }
    }
  }
}

function chargesItself(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' && toolBucket(params.name) !== null;
}
