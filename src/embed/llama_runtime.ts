/**
 * One node-llama-cpp `Llama` per JavaScript realm, shared by every embedder
 * and reranker, handed out as leases.
 *
 * llama.cpp's backend and node-llama-cpp's logger are process-global native
 * state: each `getLlama()` re-registers them, and disposing any `Llama`
 * frees the backend under every other one. So there is one `Llama`, created
 * by the first lease and disposed when the last lease is released, and
 * creation and disposal never overlap.
 */
import type { Llama, LlamaLogLevel } from "node-llama-cpp";

/** A hold on the shared `Llama`. Release it once, after disposing what was made with it. */
export interface LlamaLease {
  readonly llama: Llama;
  /** Gives the hold back; the last one disposes the `Llama`. Repeated calls return the first call's promise. */
  release(): Promise<void>;
}

let shared: Llama | null = null;
/** Thread count of each live lease; the `Llama`'s thread cap is their maximum. */
const holders = new Map<symbol, number>();
let queue: Promise<unknown> = Promise.resolve();

/** Runs `step` after every earlier acquire and release has settled. */
function serial<T>(step: () => Promise<T>): Promise<T> {
  const next = queue.then(step);
  queue = next.catch(() => {});
  return next;
}

/**
 * A lease on the shared `Llama`, created on the CPU if none is live.
 *
 * @param threads Threads the caller's contexts use; the `Llama` caps all its contexts together at the largest live lease's count.
 */
export function acquireLlama(threads: number): Promise<LlamaLease> {
  return serial(async () => {
    shared ??= await createLlama(threads);
    const id = Symbol("lease");
    holders.set(id, threads);
    shared.maxThreads = Math.max(...holders.values());
    let released: Promise<void> | null = null;
    return {
      llama: shared,
      release: () => released ??= serial(() => drop(id)),
    };
  });
}

/** Live leases, for tests. */
export function liveLlamaLeases(): number {
  return holders.size;
}

async function drop(id: symbol): Promise<void> {
  holders.delete(id);
  const llama = shared;
  if (llama === null) return;
  if (holders.size > 0) {
    llama.maxThreads = Math.max(...holders.values());
    return;
  }
  shared = null;
  await llama.dispose();
}

async function createLlama(threads: number): Promise<Llama> {
  // llama.cpp's default thread count over-subscribes shared machines: always pass ours.
  // Loaded on first use: importing node-llama-cpp costs a command that never embeds ~0.2 s of CPU.
  const { getLlama } = await import("node-llama-cpp");
  return await getLlama({
    gpu: false,
    build: "never",
    logLevel: "error" as LlamaLogLevel.error,
    maxThreads: threads,
    progressLogs: false,
  });
}
