/**
 * SIGINT and SIGTERM as an abort: a command that writes the index stops
 * through its AbortSignal, so its lock and progress file are cleaned up
 * instead of being left behind by a process that died mid-run.
 */

const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const;
type StopSignal = keyof typeof SIGNALS;

export interface Interrupt {
  /** Aborts on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The signal that arrived, if one did. */
  readonly received: StopSignal | null;
  /** The shell's exit status for it: 128 + its number (130, 143). */
  readonly exitCode: number;
  /** Stops listening; call once cleanup is over, so a second signal cannot cut it short. */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM until `dispose`. */
export function listenForInterrupt(): Interrupt {
  const controller = new AbortController();
  let received: StopSignal | null = null;
  const listeners = (Object.keys(SIGNALS) as StopSignal[]).map((name) => {
    const listener = () => {
      received ??= name;
      controller.abort();
    };
    Deno.addSignalListener(name, listener);
    return { name, listener };
  });
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    get exitCode() {
      return received ? 128 + SIGNALS[received] : 0;
    },
    dispose() {
      for (const { name, listener } of listeners) Deno.removeSignalListener(name, listener);
    },
  };
}
