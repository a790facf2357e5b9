import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * The nats-server the tests and the bench run: NATS_SERVER_BIN when set, else the current one
 * `scripts/install-nats-server.sh` unpacked into .tools/ (the README's test command runs it first).
 * Never the machine's /usr/sbin/nats-server: Debian stable's 2.9.10 forks replicated streams.
 */
export function natsServerBinary(): string {
  const bin = process.env.NATS_SERVER_BIN || join(ROOT, '.tools', 'nats-server', 'nats-server');
  if (!existsSync(bin)) {
    throw new Error(`no nats-server at ${bin}: run scripts/install-nats-server.sh (npm test runs it first)`);
  }
  return bin;
}
