import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { nodeOptions } from '../../src/config/node-options';
import { RESERVED_DESCRIPTORS } from '../../src/http/connections/connection-limits';

const ROOT = join(__dirname, '..', '..');
const UNIT = join(ROOT, 'deploy', 'systemd', 'agent-chat.service');
const run = promisify(execFile);

/** The setting's values in the unit file (a key may repeat). */
function settings(key: string): string[] {
  return readFileSync(UNIT, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1));
}

/** deploy/systemd/agent-chat.service: valid for systemd, hardened, and consistent with the service. */
describe('systemd unit (deploy/systemd/agent-chat.service)', () => {
  it('passes systemd-analyze verify without a warning', async () => {
    const { stdout, stderr } = await run('systemd-analyze', ['verify', UNIT]);
    expect(stdout + stderr).toBe('');
  });

  it('is hardened: a dedicated user, no privileges, a read-only system, an exposure score under 2', async () => {
    expect(settings('User')).toEqual(['agent-chat']);
    expect(readFileSync(join(ROOT, 'deploy', 'systemd', 'agent-chat.sysusers.conf'), 'utf8')).toMatch(
      /^u agent-chat /m,
    );
    expect(settings('NoNewPrivileges')).toEqual(['yes']);
    expect(settings('ProtectSystem')).toEqual(['strict']);
    expect(settings('CapabilityBoundingSet')).toEqual(['']);
    expect(settings('Restart')).toEqual(['on-failure']);
    const { stdout } = await run('systemd-analyze', ['security', '--offline=true', '--no-pager', UNIT]);
    const exposure = /Overall exposure level for agent-chat\.service: ([\d.]+)/.exec(stdout);
    expect(exposure).not.toBeNull();
    expect(Number(exposure![1])).toBeLessThan(2);
  });

  it('sets an open-file limit that gives the documented connection cap, and starts node as npm start does', () => {
    const [limit] = settings('LimitNOFILE').map(Number);
    const connections = limit - RESERVED_DESCRIPTORS;
    expect(readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8')).toContain(
      `(${connections.toLocaleString('en-US')} at \`ulimit -n ${limit}\`)`,
    );
    // npm start runs node with nodeOptions() once dist/node-options.cli.js has checked the configuration.
    const [execStart] = settings('ExecStart');
    for (const option of nodeOptions({ heapMb: 1024 })) {
      expect(execStart).toContain(option.replace('=1024', '=${CHAT_HEAP_MB}'));
    }
    expect(settings('ExecStartPre')).toEqual(['/usr/bin/node /opt/agent-chat/dist/node-options.cli.js']);
    expect(settings('Environment').join(' ')).toMatch(/CHAT_ROOT=\/var\/lib\/agent-chat/);
    expect(settings('StateDirectory')).toEqual(['agent-chat']);
  });
});
