import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ServiceMetrics } from '../../src/metrics/service-metrics';
import { makeTempDir } from '../support/temp-dir';

const DEPLOY = join(__dirname, '..', '..', 'deploy');
const RULES = join(DEPLOY, 'prometheus', 'alerts.yml');
const RULE_TESTS = join(DEPLOY, 'prometheus', 'alerts.test.yml');
const OPERATIONS = join(__dirname, '..', '..', 'docs', 'operations.md');

interface Rule {
  readonly alert: string;
  readonly expr: string;
}
interface RuleTest {
  readonly alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }>;
}

function promtool(args: readonly string[], cwd?: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const rules = (parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap(
  (group) => group.rules,
);
const ruleTests = (parse(readFileSync(RULE_TESTS, 'utf8')) as { tests: RuleTest[] }).tests.flatMap(
  (test) => test.alert_rule_test ?? [],
);

/**
 * Issue 25 item 3: the alert rules ship as a file and each one is tested by promtool (Debian's
 * prometheus package, which `npm test`'s pretest installs) against series labelled as the service
 * labels them. The documented AgentChatCheckpointsStale compared a series without `kind` to one with
 * it, so it matched nothing and could never fire; its test here fires.
 */
describe('Prometheus alert rules (deploy/prometheus/alerts.yml)', () => {
  it('are valid rules, and every test of them passes under promtool', () => {
    const check = promtool(['check', 'rules', RULES]);
    expect(check.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(check.status).toBe(0);
    const test = promtool(['test', 'rules', RULE_TESTS]);
    expect(test.output).toContain('SUCCESS');
    expect(test.status).toBe(0);
  });

  it('every alert has a test where it fires and one where it stays quiet', () => {
    for (const { alert } of rules) {
      const cases = ruleTests.filter((test) => test.alertname === alert);
      expect({ alert, fires: cases.some((test) => (test.exp_alerts ?? []).length > 0) }).toEqual({
        alert,
        fires: true,
      });
      expect({ alert, quiet: cases.some((test) => (test.exp_alerts ?? []).length === 0) }).toEqual({
        alert,
        quiet: true,
      });
    }
  });

  it('name only metrics the service exports', async () => {
    const exported = new Set(
      (await new ServiceMetrics().registry.getMetricsAsJSON()).map((metric) => metric.name),
    );
    for (const { alert, expr } of rules) {
      for (const name of expr.match(/\bchat_[a-z_]+/g) ?? []) {
        const base = name.replace(/_(bucket|sum|count)$/, '');
        expect({ alert, metric: base, exported: exported.has(base) }).toEqual({
          alert,
          metric: base,
          exported: true,
        });
      }
    }
  });

  it('the compose cluster loads them (prometheus.yml with alerts.yml mounted beside it)', () => {
    const dir = makeTempDir('agent-chat-prometheus-config');
    try {
      copyFileSync(join(DEPLOY, 'compose', 'prometheus.yml'), join(dir.path, 'prometheus.yml'));
      copyFileSync(RULES, join(dir.path, 'alerts.yml'));
      const check = promtool(['check', 'config', 'prometheus.yml'], dir.path);
      expect(check.output).toContain(`SUCCESS: ${rules.length} rules found`);
      expect(check.status).toBe(0);
      expect(readFileSync(join(DEPLOY, 'compose', 'compose.yaml'), 'utf8')).toContain(
        '../prometheus/alerts.yml:/etc/prometheus/alerts.yml',
      );
    } finally {
      dir.remove();
    }
  });

  it('are each described in docs/operations.md', () => {
    const operations = readFileSync(OPERATIONS, 'utf8');
    for (const { alert } of rules)
      expect({ alert, documented: operations.includes(`\`${alert}\``) }).toEqual({ alert, documented: true });
  });
});
