import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnListening, stopProcess } from '../../support/listening-process';
import { ServiceProcess } from '../../support/service-process';
import { makeTempDir } from '../../support/temp-dir';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * Issue 25 item 2, through `npm start` itself: values that become node's own options are checked
 * before node is started with them (CHAT_HEAP_MB=10 crashed V8 out of memory, exit 134; `abc` was a
 * bad node option), and the start-up line names the build.
 */
describe('npm start checks its configuration before starting node', () => {
  // Made in beforeAll, not at load: a run filtered with -t skips the hooks of a block it skips.
  let dir: ReturnType<typeof makeTempDir>;
  beforeAll(() => (dir = makeTempDir('agent-chat-npm-checks')));
  beforeAll(() => {
    // prestart would build dist/ on first use; doing it here keeps the starts below within their timeout.
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.js')], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }, 180_000);
  afterAll(() => dir.remove());

  for (const heap of ['10', 'abc', '-5', '1024 --inspect']) {
    it(`CHAT_HEAP_MB=${heap}: one fatal line naming the variable and its range, exit 1`, async () => {
      const run = await ServiceProcess.refusedStart(
        { CHAT_ROOT: join(dir.path, 'data'), CHAT_HEAP_MB: heap },
        'npm-start',
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toBe('');
      const lines = run.stdout.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({
        level: 'fatal',
        context: 'Main',
        msg: `invalid configuration: CHAT_HEAP_MB=${heap}: must be a whole number from 256 to 1048576`,
      });
    }, 120_000);
  }

  it('a heap too small for the memory budgets is refused before node starts, naming the budgets', async () => {
    const run = await ServiceProcess.refusedStart(
      { CHAT_ROOT: join(dir.path, 'data'), CHAT_HEAP_MB: '300' },
      'npm-start',
    );
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).msg).toMatch(
      /below the 832 MiB the memory budgets need .*raise CHAT_HEAP_MB/,
    );
  }, 120_000);

  it('the start-up line names the build (package version and commit) beside the interface version', async () => {
    const { child, startOutput } = await spawnListening(['start', '--silent'], {
      command: 'npm',
      cwd: ROOT,
      env: { ...process.env, CHAT_ROOT: join(dir.path, 'build'), PORT: '0', HOST: '127.0.0.1' },
      timeoutMs: 90_000,
    });
    await stopProcess(child, 'SIGTERM');
    const line = startOutput
      .split('\n')
      .filter((text) => text !== '')
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((fields) => String(fields.msg).startsWith('listening on '));
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
    expect(line).toMatchObject({ version: '0.14.5', build: { version } });
    expect((line!.build as { commit: string }).commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
  }, 120_000);
});
