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
  // Pieces of one long line share a location: name each location once.
  const byPlace = new Map<string, number[]>();
  for (const input of over) {
    const place = `${input.sourcePath}:${input.lineStart}-${input.lineEnd}`;
    byPlace.set(place, [...byPlace.get(place) ?? [], input.tokens]);
  }
  const places = [...byPlace];
  const listed = places.slice(0, LISTED).map(([place, tokens]) =>
    tokens.length === 1
      ? `${place} (${tokens[0]} tokens)`
      : `${place} (${tokens.length} pieces, up to ${Math.max(...tokens)} tokens)`
  );
  if (places.length > LISTED) listed.push(`and ${places.length - LISTED} more places`);
  const noun = over.length === 1 ? "passage" : "passages";
  throw new WayfinderError(
    "long_input",
    `Cannot embed ${over.length} ${noun} longer than ${report.maxTokens} tokens: ${
      listed.join(", ")
    }; exclude them (--exclude GLOB) or embed their first tokens (--long-input truncate)`,
  );
}
