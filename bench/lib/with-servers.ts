import { ChildServer } from './child-server';
import { BENCH_ENV, tempDataDir } from './context';

/**
 * Runs a scenario against the service (on a fresh temporary data directory, BENCH_ENV plus `env`)
 * and the bare-Fastify baseline, and always stops both and deletes the data afterwards, even when a
 * server fails to start or the scenario throws.
 */
export async function withServers<T>(
  label: string,
  env: Record<string, string>,
  run: (service: ChildServer, baseline: ChildServer) => Promise<T>,
): Promise<T> {
  const data = tempDataDir(label);
  let service: ChildServer | undefined;
  let baseline: ChildServer | undefined;
  try {
    service = await ChildServer.service({ ...BENCH_ENV, CHAT_ROOT: data.path, ...env });
    baseline = await ChildServer.baseline();
    return await run(service, baseline);
  } finally {
    await service?.stop();
    await baseline?.stop();
    data.dispose();
  }
}

/** withServers without the baseline: scenarios that compare two ways of using the service itself. */
export async function withService<T>(
  label: string,
  env: Record<string, string>,
  run: (service: ChildServer) => Promise<T>,
): Promise<T> {
  const data = tempDataDir(label);
  let service: ChildServer | undefined;
  try {
    service = await ChildServer.service({ ...BENCH_ENV, CHAT_ROOT: data.path, ...env });
    return await run(service);
  } finally {
    await service?.stop();
    data.dispose();
  }
}
