import { cpus } from "node:os";

/**
 * Default thread count: the cores this process may use (what `nproc`
 * reports) less those other work keeps busy right now (CPU time sampled over
 * 100 ms), at least 1 and at most 8. Measured on a 2-core machine
 * (bench/embed_throughput_bench.ts): idle, 2 threads embed 1.7× faster than
 * 1, so no core may sit idle; with one core busy, 2 threads ran 1.6× slower
 * than 1, because llama.cpp's threads spin while they wait for each other.
 * The load average cannot tell: it lags minutes behind (2.5 on an idle
 * machine right after a test run). Past 8 threads nothing was measured.
 */
export async function defaultThreads(): Promise<number> {
  const cores = navigator.hardwareConcurrency ?? 1;
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const after = cpuTimes();
  const elapsed = after.total - before.total;
  const busy = elapsed > 0 ? Math.round((after.busy - before.busy) / elapsed * cpus().length) : 0;
  return Math.max(1, Math.min(cores - busy, 8));
}

/** Busy and total CPU milliseconds of every core since boot. */
function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    total += times.user + times.nice + times.sys + times.irq + times.idle;
  }
  return { busy, total };
}
