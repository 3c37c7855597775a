/**
 * Turns on one llama.cpp context, queries first.
 *
 * A context evaluates one input at a time under a first-come lock, so a
 * query sent while an index run's batch waits in that lock would wait for
 * the whole batch: seconds on a laptop CPU, tens of seconds under load.
 * Here each passage is its own turn and a waiting query takes the next one,
 * so it waits for at most the passage being evaluated.
 */
export class QueryFirstTurns {
  readonly #queries: (() => void)[] = [];
  readonly #passages: (() => void)[] = [];
  #busy = false;

  /**
   * Runs `work` alone on the context: after the turn in progress and every
   * query waiting before it (a passage: after every waiting query too).
   */
  run<T>(kind: "query" | "passage", work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const turn = async () => {
        try {
          resolve(await work());
        } catch (error) {
          reject(error);
        } finally {
          this.#next();
        }
      };
      (kind === "query" ? this.#queries : this.#passages).push(turn);
      if (!this.#busy) this.#next();
    });
  }

  #next(): void {
    const turn = this.#queries.shift() ?? this.#passages.shift();
    this.#busy = turn !== undefined;
    turn?.();
  }
}
