import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../../src/config/app-config';
import { KNOBS } from '../../../src/config/config-knobs';
import { ConfigError, loadConfig } from '../../../src/config/load-config';

describe('configuration', () => {
  it('has a default for every knob and freezes the result', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      root: './data',
      fsync: 'always',
      maxWait: 10,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads the reference knob names and the fsync aliases', () => {
    const config = loadConfig({
      PORT: '9000',
      CHAT_ROOT: '/tmp/x',
      CHAT_FSYNC: '0',
      CHAT_MAX_WAIT: '2.5',
      CHAT_MAX_ROOMS: '10',
    });
    expect(config).toMatchObject({ port: 9000, root: '/tmp/x', fsync: 'none', maxWait: 2.5, maxRooms: 10 });
    expect(loadConfig({ CHAT_FSYNC: '1' }).fsync).toBe('always');
    expect(loadConfig({ CHAT_FSYNC: 'interval' }).fsync).toBe('interval');
  });

  it('clamps the stillborn window to whole hours', () => {
    expect(loadConfig({ CHAT_STILLBORN_SECONDS: '43300' }).stillbornSeconds).toBe(43200);
  });

  it('reports every invalid knob in one error naming the variables', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', CHAT_FSYNC: 'sometimes', CHAT_STILLBORN_SECONDS: '60' }),
    ).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', CHAT_FSYNC: 'sometimes' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT=eighty/);
      expect((error as Error).message).toMatch(/CHAT_FSYNC=sometimes/);
    }
  });

  it('names the variable and says in one clause what it accepts, never an internal field', () => {
    const message = (env: Record<string, string>): string => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(message({ PORT: 'eighty' })).toBe(
      'invalid configuration: PORT=eighty: must be a whole number from 0 to 65535',
    );
    expect(message({ CHAT_HEAP_MB: '100' })).toBe(
      'invalid configuration: CHAT_HEAP_MB=100: must be a whole number from 256 to 1048576',
    );
    expect(message({ CHAT_FSYNC: 'sometimes' })).toBe(
      'invalid configuration: CHAT_FSYNC=sometimes: must be one of always, interval, none (or 1 for always, 0 for none)',
    );
    expect(message({ CHAT_MAX_WAIT: 'soon' })).toBe(
      'invalid configuration: CHAT_MAX_WAIT=soon: must be a number from 0 to 300',
    );
    // Several bad values: one line, one clause each (the fatal log line stays one line to read).
    const both = message({ PORT: '-1', CHAT_ROOT: '', CHAT_CHECKPOINTS_KEEP: '0' });
    expect(both).not.toContain('\n');
    expect(both.split('; ')).toHaveLength(2);
    expect(both).not.toMatch(/\b(port|checkpointsKeep|heapMb)\b/);
  });

  it('accepts exactly the CHAT_FSYNC aliases the README documents', () => {
    expect(loadConfig({ CHAT_FSYNC: '0' }).fsync).toBe('none');
    expect(loadConfig({ CHAT_FSYNC: '1' }).fsync).toBe('always');
    expect(loadConfig({ CHAT_FSYNC: 'none' }).fsync).toBe('none');
    for (const undocumented of ['yes', 'off', 'true', 'ALWAYS']) {
      expect(() => loadConfig({ CHAT_FSYNC: undocumented })).toThrow(ConfigError);
    }
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const row = readme.split('\n').find((line) => line.startsWith('| `CHAT_FSYNC` |'))!;
    expect(row).toContain('`always` (or `1`)');
    expect(row).toContain('`none` (or `0`)');
  });

  describe('the README configuration table (issue 25: table and code in step, both ways)', () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('\n## Configuration\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Configuration\n') + 1),
    );
    const rows = section
      .split('\n')
      .map((line) => /^\| `([A-Z_]+)` \| (.*?) \| /.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map(([, env, defaultCell]) => ({ env, defaultCell }));
    /** Defaults derived from other values or the machine: the table says how, not a literal. */
    const DERIVED = ['CHAT_MAX_NOTES_PER_NS', 'CHAT_MAX_NOTES_TOTAL', 'CHAT_VERIFY_WORKERS'];

    it('lists exactly the variables the code reads, each once, in the code’s order', () => {
      expect(rows.map((row) => row.env)).toEqual(KNOBS.map((knob) => knob.env));
      expect(new Set(KNOBS.map((k) => k.field)).size).toBe(KNOBS.length);
      const fields = Object.keys(new AppConfig());
      expect(KNOBS.map((k) => k.field as string).sort()).toEqual(fields.sort());
    });

    it('states each default the code has', () => {
      const defaults = new AppConfig() as unknown as Record<string, unknown>;
      const derived: string[] = [];
      for (const { env, defaultCell } of rows) {
        const knob = KNOBS.find((k) => k.env === env)!;
        const literal = /^`([^`]*)`$/.exec(defaultCell);
        const code = String(defaults[knob.field]);
        if (literal !== null) expect({ env, default: literal[1] }).toEqual({ env, default: code });
        else if (defaultCell.startsWith('*(empty'))
          expect({ env, default: '' }).toEqual({ env, default: code });
        else derived.push(env);
      }
      expect(derived).toEqual(DERIVED);
    });
  });

  it('accepts an absolute http(s) public URL or none, and refuses anything else', () => {
    for (const good of ['', 'https://chat.example', 'http://127.0.0.1:8080/', 'https://example.org/chat']) {
      expect(loadConfig({ CHAT_PUBLIC_URL: good }).publicUrl).toBe(good);
    }
    for (const bad of [
      'notaurl',
      'chat.example',
      '/chat',
      'ftp://chat.example',
      'https://x/?a=1',
      'https://x/#a',
    ]) {
      expect(() => loadConfig({ CHAT_PUBLIC_URL: bad })).toThrow(
        `CHAT_PUBLIC_URL=${bad}: must be an absolute http:// or https:// URL without query or fragment, or empty`,
      );
    }
  });

  it('accepts CORS origins as a browser sends them, or *', () => {
    for (const good of [
      '',
      '*',
      'https://app.example',
      'http://localhost:3000, https://a.example',
      'https://a.example,*',
    ]) {
      expect(loadConfig({ CHAT_CORS_ORIGINS: good }).corsOrigins).toBe(good.trim());
    }
    // A path, a trailing slash or capitals never equal an Origin header: the origin would never match.
    for (const bad of [
      'app.example',
      'https://app.example/',
      'https://App.example',
      'https://a.example/x',
      'null',
    ]) {
      expect(() => loadConfig({ CHAT_CORS_ORIGINS: bad })).toThrow(
        `CHAT_CORS_ORIGINS=${bad}: must be comma-separated origins (scheme://host[:port], as a browser sends them) or *`,
      );
    }
  });

  it('accepts NATS servers as nats://, tls:// or host:port, and refuses http:// and an empty list', () => {
    for (const good of [
      'nats://127.0.0.1:4222',
      'tls://nats.example:4222',
      'nats-1:4222,nats-2:4222',
      'nats',
      '[::1]:4222',
    ]) {
      expect(loadConfig({ CHAT_NATS_URL: good }).natsUrl).toBe(good);
    }
    for (const bad of ['http://nats:4222', 'https://nats:4222', ',', 'nats://', 'host:port:x']) {
      expect(() => loadConfig({ CHAT_NATS_URL: bad })).toThrow(
        `CHAT_NATS_URL=${bad}: must be comma-separated NATS servers`,
      );
    }
  });
});
