/**
 * Benchmarks over llama.cpp models that free them before the module ends.
 *
 * `deno bench` runs every bench file in its own isolate and tears it down
 * while the process goes on. A model or context still open then is disposed
 * by node-llama-cpp's exit hook, whose native work races the teardown and
 * corrupts the heap ("malloc(): unsorted double linked list corrupted").
 * Deno.bench has no after-all hook, so each iteration opens its own fixture
 * and closes it, both outside the timed part.
 */

/** What one iteration opens, measures and closes. */
export interface Fixture<T> {
  open(): Promise<T>;
  /** The timed part. */
  run(fixture: T): Promise<void>;
  close(fixture: T): Promise<void>;
}

/** Deno.bench whose iterations each open, time and close a {@linkcode Fixture}. */
export function benchWithFixture<T>(
  name: string,
  options: Omit<Deno.BenchDefinition, "fn" | "name">,
  fixture: Fixture<T>,
): void {
  Deno.bench(name, options, async (b) => {
    const opened = await fixture.open();
    try {
      b.start();
      await fixture.run(opened);
      b.end();
    } finally {
      await fixture.close(opened);
    }
  });
}
