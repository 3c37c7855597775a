import { WayfinderError } from "../error.ts";
import type { FitReport } from "./fit_inputs.ts";

/** How many offenders the error message names before summarising the rest. */
const LISTED = 10;

/**
 * Throws when the policy is "reject" and some input is over budget; with
 * "truncate" the embed stage shortens them instead, so nothing is thrown.
 */
export function assertFits(report: FitReport): void {
  if (report.policy !== "reject" || report.overLimit === 0) return;
  const over = report.inputs.filter((input) => !input.fits);
  const listed = over.slice(0, LISTED).map((input) =>
    `${input.sourcePath}:${input.lineStart}-${input.lineEnd} (${input.tokens} tokens)`
  );
  if (over.length > LISTED) listed.push(`and ${over.length - LISTED} more`);
  const noun = over.length === 1 ? "passage" : "passages";
  throw new WayfinderError(
    "long_input",
    `Cannot embed ${over.length} ${noun} longer than ${report.maxTokens} tokens: ${
      listed.join(", ")
    }`,
  );
}
