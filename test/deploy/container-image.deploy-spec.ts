import { podman, podmanOk, publishedPort, serviceImage, uniqueName, waitForStatus } from './support/podman';

/**
 * The image deploy/Containerfile builds, run for real with podman: it serves, runs as a non-root user
 * under an init that reaps orphans, holds nothing but production dependencies and dist/, stops cleanly
 * on `podman stop`, and a new container on the same volume finds every acknowledged write.
 */
describe('container image (deploy/Containerfile)', () => {
  const BUILD_MS = 30 * 60_000;
  const volume = uniqueName('agent-chat-test-data');
  const containers: string[] = [];
  let image = '';

  const start = async (): Promise<{ name: string; base: string }> => {
    const name = uniqueName('agent-chat-test');
    containers.push(name);
    await podmanOk([
      'run',
      '--detach',
      // As Kubernetes runs it (readOnlyRootFilesystem): nothing may be written outside the volume
      // (podman mounts a tmpfs on /tmp, as the manifests do).
      '--read-only',
      '--name',
      name,
      '--publish',
      '127.0.0.1::8080',
      '--volume',
      `${volume}:/var/lib/agent-chat`,
      image,
    ]);
    const base = `http://127.0.0.1:${await publishedPort(name, 8080)}`;
    await waitForStatus(`${base}/readyz`, 200, 60_000);
    return { name, base };
  };

  beforeAll(async () => {
    image = await serviceImage();
    await podmanOk(['volume', 'create', volume]);
  }, BUILD_MS);

  afterAll(async () => {
    for (const name of containers) await podman(['rm', '--force', '--volumes', '--time', '2', name]);
    await podman(['volume', 'rm', '--force', volume]);
  }, 120_000);

  it('holds only production dependencies and dist/, runs as node (uid 1000), declares its volume and health check', async () => {
    const config = JSON.parse(await podmanOk(['image', 'inspect', image]))[0];
    expect(config.Config.User).toBe('node');
    expect(Object.keys(config.Config.Volumes ?? {})).toEqual(['/var/lib/agent-chat']);
    // podman reports the health check beside Config, docker inside it
    expect((config.Healthcheck ?? config.Config.Healthcheck).Test.join(' ')).toContain('/healthz');
    expect(config.Config.Entrypoint).toEqual(['/usr/bin/tini', '--', '/usr/local/bin/agent-chat-start']);
    const inImage = async (command: string): Promise<string[]> =>
      (await podmanOk(['run', '--rm', '--entrypoint', 'sh', image, '-c', command])).split('\n');
    expect((await inImage('ls -A /app')).sort()).toEqual(['dist', 'node_modules', 'package.json']);
    const installed = await inImage('cd /app/node_modules && ls -d * @*/*');
    const manifest = JSON.parse((await inImage('cat /app/package.json')).join('\n'));
    expect(installed.filter((name) => name in manifest.devDependencies)).toEqual([]);
    expect(installed).toEqual(expect.arrayContaining(Object.keys(manifest.dependencies)));
    const size = Number(config.Size);
    process.stdout.write(`image ${image}: ${(size / 1e6).toFixed(0)} MB\n`);
    expect(size).toBeGreaterThan(0);
  }, 120_000);

  it('serves on a read-only root, stops cleanly on podman stop, and a new container on the same volume has every acknowledged write', async () => {
    const first = await start();
    expect(await podmanOk(['exec', first.name, 'id', '-u'])).toBe('1000');
    expect(await podmanOk(['exec', first.name, 'cat', '/proc/1/comm'])).toBe('tini');
    const written: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const reply = await fetch(`${first.base}/r/deploy-room/say/alice/hello%20${i}`);
      expect(reply.status).toBe(200);
      written.push(`hello ${i}`);
    }
    expect((await podman(['healthcheck', 'run', first.name])).code).toBe(0);

    const stop = await podman(['stop', '--time', '30', first.name], 60_000);
    expect(stop.code).toBe(0);
    const state = JSON.parse(await podmanOk(['inspect', first.name]))[0].State;
    expect(state.ExitCode).not.toBe(137); // not killed at the deadline: node handled the SIGTERM
    const logs = await podmanOk(['logs', first.name]);
    expect(logs).toMatch(/"msg":"stopped: event log flushed and synced through offset \d+/);

    const second = await start();
    const reply = await fetch(`${second.base}/r/deploy-room?since=0&format=json`);
    const body = (await reply.json()) as { messages: { text: string }[] };
    expect(body.messages.map((m) => m.text)).toEqual(written);
  }, 240_000);

  it('reaps an orphaned process (tini is PID 1)', async () => {
    const { name } = await start();
    // The inner shell exits at once, orphaning its `sleep`: the orphan is re-parented to PID 1 and,
    // when it ends, must not stay a zombie.
    const script =
      'sh -c "sleep 1 & echo \\$!"; sleep 3; ' +
      'for p in /proc/[0-9]*; do cut -d" " -f1-3 "$p/stat" 2>/dev/null; done';
    const [orphan, ...table] = (await podmanOk(['exec', name, 'sh', '-c', script])).split('\n');
    expect(orphan).toMatch(/^\d+$/);
    expect(table.length).toBeGreaterThan(0);
    expect(table.filter((line) => line.startsWith(`${orphan} `))).toEqual([]);
    expect(table.filter((line) => / Z$/.test(line))).toEqual([]);
  }, 120_000);
});
