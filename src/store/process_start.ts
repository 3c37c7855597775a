/**
 * When a process started, so a record naming a pid can tell its writer from
 * a later process the OS gave the same pid. Linux only (`/proc`); elsewhere
 * the start is unknown and callers fall back to "the pid exists".
 */

/** Clock ticks per second in `/proc/<pid>/stat` (USER_HZ: 100 on every Linux ABI wayfinder runs on). */
const TICKS_PER_SECOND = 100;

let bootSeconds: number | null | undefined;

/** Boot time in seconds since the epoch (`btime` in `/proc/stat`), or null without `/proc`. */
function bootTime(): number | null {
  if (bootSeconds !== undefined) return bootSeconds;
  try {
    const line = Deno.readTextFileSync("/proc/stat").split("\n").find((l) =>
      l.startsWith("btime ")
    );
    bootSeconds = line ? Number(line.slice(6)) : null;
  } catch {
    bootSeconds = null;
  }
  return bootSeconds;
}

/**
 * When process `pid` started, in milliseconds since the epoch (at most a
 * second early: `btime` is whole seconds), or null when it cannot be told
 * (no `/proc`, no such process, a hidden one).
 */
export function processStartMs(pid: number): number | null {
  const boot = bootTime();
  if (boot === null || !Number.isFinite(boot)) return null;
  let stat: string;
  try {
    stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
  // Field 2 is the command name in parentheses and may hold spaces or ")":
  // count fields from the last ")". Field 22 is the start, in ticks after boot.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[22 - 3]);
  return Number.isFinite(ticks) ? (boot + ticks / TICKS_PER_SECOND) * 1000 : null;
}
