import type { LlamaModel } from "node-llama-cpp";
import { WayfinderError } from "../error.ts";
import type { LlamaLease } from "./llama_runtime.ts";

/** What a session's context must offer: node-llama-cpp's embedding and ranking contexts do. */
export interface NativeContext {
  dispose(): Promise<void>;
}

/**
 * The native parts behind one LlamaEmbedder or LlamaReranker: a lease on the
 * shared `Llama`, a model and a context. Work runs through {@linkcode use},
 * which refuses it once closing has begun, so nothing reaches a disposed
 * context. {@linkcode close} waits for work in flight, then disposes the
 * context, the model and the lease, in that order and once, however many
 * callers close it at the same time.
 */
export class LlamaSession<C extends NativeContext> {
  readonly model: LlamaModel;
  readonly context: C;
  readonly #lease: LlamaLease;
  /** Names the owner in errors, e.g. "embedder 'all-MiniLM-L6-v2'". */
  readonly #what: string;
  readonly #pending = new Set<Promise<unknown>>();
  #closing: Promise<void> | null = null;

  constructor(lease: LlamaLease, model: LlamaModel, context: C, what: string) {
    this.#lease = lease;
    this.model = model;
    this.context = context;
    this.#what = what;
  }

  get closed(): boolean {
    return this.#closing !== null;
  }

  /** @throws {WayfinderError} "internal" once the session is closed. */
  assertOpen(): void {
    if (this.#closing) {
      throw new WayfinderError("internal", `Cannot use the ${this.#what}: it is closed`);
    }
  }

  /** Runs `work` on the open session; {@linkcode close} waits for it. */
  use<T>(work: () => Promise<T>): Promise<T> {
    try {
      this.assertOpen();
    } catch (error) {
      return Promise.reject(error);
    }
    const running = work();
    this.#pending.add(running);
    const forget = () => this.#pending.delete(running);
    running.then(forget, forget);
    return running;
  }

  close(): Promise<void> {
    return this.#closing ??= this.#dispose();
  }

  async #dispose(): Promise<void> {
    await Promise.allSettled(this.#pending);
    await disposeInOrder(this.#lease, this.model, this.context);
  }
}

/**
 * Disposes a context (if any), then its model, then releases the lease;
 * each step runs even if an earlier one threw, and the first error is
 * rethrown. A context must never outlive its model.
 */
export async function disposeInOrder(
  lease: LlamaLease,
  model: LlamaModel | undefined,
  context?: NativeContext,
): Promise<void> {
  const steps = [() => context?.dispose(), () => model?.dispose(), () => lease.release()];
  const errors: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw errors[0];
}
