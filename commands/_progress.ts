import type { IndexProgress } from "../src/cli/mod.ts";
import type { CommandContext } from "./_command.ts";

/**
 * A one-line progress display on stderr: files and chunks done, rate, ETA.
 * Only on a terminal; elsewhere it prints nothing and the final summary
 * stands alone.
 */
export function progressLine(context: CommandContext): (progress: IndexProgress) => void {
  if (!context.stderrIsTerminal) return () => {};
  const started = performance.now();
  let lastDraw = 0;
  return (p) => {
    const now = performance.now();
    if (now - lastDraw < 100 && p.phase !== "write") return;
    lastDraw = now;
    let text = `${p.phase}: files ${p.filesDone}/${p.filesTotal}`;
    if (p.phase === "embed" || p.phase === "write") {
      const seconds = (now - started) / 1000;
      const rate = p.chunksDone / Math.max(seconds, 0.001);
      const eta = rate > 0 ? (p.chunksTotal - p.chunksDone) / rate : 0;
      text += `  chunks ${p.chunksDone}/${p.chunksTotal}  ${rate.toFixed(1)}/s  ETA ${
        eta.toFixed(0)
      }s`;
    }
    context.stderr(`\r\x1b[2K${text}${p.phase === "write" ? "\n" : ""}`);
  };
}
