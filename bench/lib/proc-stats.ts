import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // Linux USER_HZ

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident set size in bytes, from /proc/<pid>/status. */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/** Samples a process while `work` runs: CPU share of one core and peak RSS. */
export async function measure<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: number; peakRss: number }> {
  const cpuBefore = cpuSeconds(pid);
  const started = process.hrtime.bigint();
  let peakRss = rssBytes(pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(pid))), 100);
  try {
    const result = await work();
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    peakRss = Math.max(peakRss, rssBytes(pid));
    return { result, cpu: (cpuSeconds(pid) - cpuBefore) / wall, peakRss };
  } finally {
    clearInterval(sampler);
  }
}
