import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signingKeyFromSeed } from '../../../src/identity/signing-key';
import { makeTempDir } from '../../support/temp-dir';

const ROOT = join(__dirname, '..', '..', '..');
const TS_REGISTER = join(ROOT, 'test', 'support', 'ts-register.js');
const SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';

const tsCache = process.env.AGENT_CHAT_TS_CACHE
  ? { AGENT_CHAT_TS_CACHE: process.env.AGENT_CHAT_TS_CACHE }
  : {};

/** Runs a tool from source as `npm run <tool>` runs its build: same entry, same exit codes. */
function tool(name: string, args: readonly string[], env: Record<string, string> = {}, input?: string) {
  const result = spawnSync(
    process.execPath,
    ['-r', TS_REGISTER, join(ROOT, 'src', 'tools', `${name}.cli.ts`), ...args],
    {
      cwd: ROOT,
      // A bare environment, but the run's transpile cache (read by ts-register only, not by the tool).
      env: { PATH: process.env.PATH, ...tsCache, ...env },
      encoding: 'utf8',
      timeout: 30_000,
      input,
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Issue 16: every command answers --help, refuses what it does not know, and says what it printed. */
describe('command-line tools', () => {
  const dir = makeTempDir('agent-chat-tools');
  afterAll(() => dir.remove());

  for (const name of [
    'events',
    'replay',
    'keygen',
    'sign',
    'nats-status',
    'nats-restart-stream',
    'salvage',
    'snapshot',
    'verify',
  ]) {
    it(`${name}: --help and -h print the usage and exit 0; an unknown option exits 2`, () => {
      for (const flag of ['--help', '-h']) {
        const help = tool(name, [flag]);
        expect(help.code).toBe(0);
        expect(help.stdout).toMatch(/^usage: npm run /);
        expect(help.stderr).toBe('');
      }
      const unknown = tool(name, ['--bogus', 'x']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/--bogus/);
      expect(unknown.stderr).toMatch(/usage: npm run /);
      expect(unknown.stdout).toBe('');
    });
  }

  it('keygen labels the seed and the did:key and warns on stderr that the seed is secret', () => {
    const { code, stdout, stderr } = tool('keygen', []);
    expect(code).toBe(0);
    const match = /^seed: ([0-9a-f]{64})\ndid: {2}(did:key:z\S+)\n$/.exec(stdout);
    expect(match).not.toBeNull();
    expect(signingKeyFromSeed(match![1]).did).toBe(match![2]);
    expect(stderr).toMatch(/seed is secret/);
    expect(tool('keygen', ['extra']).code).toBe(2);
  });

  it('events refuses a --type that matches no event type, and lists the known ones', () => {
    const { code, stdout, stderr } = tool('events', [dir.path, '--type', 'message.apended']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/--type message\.apended matches no event type \(.*message\.appended/);
  });

  it('sign derives the service URL from PORT/HOST or CHAT_PUBLIC_URL unless --base is given', () => {
    const args = ['--seed', SEED, '--room', 'r', '--nonce', '1', '--text', 'hi'];
    const urlOf = (out: string): string => out.split('\n')[1];
    expect(urlOf(tool('sign', args, { PORT: '9123', HOST: '0.0.0.0' }).stdout)).toMatch(
      /^http:\/\/127\.0\.0\.1:9123\/r\/r\/say-signed\//,
    );
    expect(urlOf(tool('sign', args, { PORT: '9123', HOST: '::1' }).stdout)).toMatch(
      /^http:\/\/\[::1\]:9123\//,
    );
    expect(urlOf(tool('sign', args, { CHAT_PUBLIC_URL: 'https://chat.example/' }).stdout)).toMatch(
      /^https:\/\/chat\.example\/r\/r\//,
    );
    expect(urlOf(tool('sign', [...args, '--base', 'http://h:1'], { PORT: '9123' }).stdout)).toMatch(
      /^http:\/\/h:1\//,
    );
    expect(urlOf(tool('sign', args).stdout)).toMatch(/^http:\/\/127\.0\.0\.1:8080\//);
  });

  for (const [name, args] of [
    ['verify', []],
    ['events', []],
    ['replay', [join('x', 'copy')]],
  ] as const) {
    it(`${name} on a missing data directory prints one line naming it and exits 1`, () => {
      const missing = join(dir.path, 'no-such-dir');
      const { code, stdout, stderr } = tool(name, [missing, ...args]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        `${missing}: no such directory (give the service's data directory, its CHAT_ROOT)\n`,
      );
    });
  }

  it('sign takes the seed from a file, stdin or CHAT_SIGN_SEED, so it need not be on the command line', () => {
    const args = ['--room', 'r', '--nonce', '1', '--text', 'hi'];
    const expected = tool('sign', ['--seed', SEED, ...args]);
    expect(expected.code).toBe(0);
    const keyFile = join(dir.path, 'me.key');
    writeFileSync(keyFile, `seed: ${SEED}\ndid:  ${signingKeyFromSeed(SEED).did}\n`); // keygen's output
    const seedOnly = join(dir.path, 'seed.txt');
    writeFileSync(seedOnly, `${SEED}\n`);
    expect(tool('sign', ['--seed-file', keyFile, ...args])).toEqual(expected);
    expect(tool('sign', ['--seed-file', seedOnly, ...args])).toEqual(expected);
    expect(tool('sign', ['--seed-file', '-', ...args], {}, `${SEED}\n`)).toEqual(expected);
    expect(tool('sign', args, { CHAT_SIGN_SEED: SEED })).toEqual(expected);
    const none = tool('sign', args);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^give the seed: --seed-file <path> \(- for stdin\), CHAT_SIGN_SEED, or --seed <hex>\n/,
    );
    const missing = tool('sign', ['--seed-file', join(dir.path, 'none.key'), ...args]);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe(`--seed-file ${join(dir.path, 'none.key')}: no such file\n`);
  });
});
