import { ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A real Prometheus (Debian's package; npm test's pretest installs it) scraping `targets` every
 * second as job `agent-chat`, its configuration and data under `dir`, on `port` of loopback.
 * Stop it with stopProcess(child).
 */
export function startPrometheus(options: {
  dir: string;
  targets: readonly string[];
  port: number;
}): ChildProcess {
  const config = join(options.dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: agent-chat',
      '    static_configs:',
      `      - targets: [${options.targets.map((target) => `'${target}'`).join(', ')}]`,
      '',
    ].join('\n'),
  );
  return spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(options.dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${options.port}`,
    ],
    { stdio: 'ignore' },
  );
}
