import { WayfinderError } from "../error.ts";
import type { QueryGroups } from "./load_groups.ts";
import type { Qrels } from "./load_qrels.ts";
import type { Queries } from "./load_queries.ts";
import type { SpanQrels } from "./load_span_qrels.ts";

/** Lists ids, eliding past ten so the message stays one line. */
function list(ids: string[]): string {
  const shown = ids.slice(0, 10).join(", ");
  return ids.length > 10 ? `${shown} and ${ids.length - 10} more` : shown;
}

/**
 * Checks that queries, judgments and groups describe the same query ids:
 * every query is judged, every judged id is a query, and with groups given
 * every query has a group.
 *
 * @throws {WayfinderError} "input" naming the offending ids.
 */
export function validateEvalInput(
  queries: Queries,
  judgments: Qrels | SpanQrels,
  groups?: QueryGroups,
): void {
  const fail = (reason: string): never => {
    throw new WayfinderError("input", `Cannot evaluate: ${reason}`);
  };
  const qids = Object.keys(queries);
  const unjudged = qids.filter((q) => !Object.hasOwn(judgments, q));
  if (unjudged.length) fail(`queries without judgments: ${list(unjudged)}`);
  const orphans = Object.keys(judgments).filter((q) => !Object.hasOwn(queries, q));
  if (orphans.length) fail(`judgments for unknown queries: ${list(orphans)}`);
  if (groups) {
    const ungrouped = qids.filter((q) => !Object.hasOwn(groups, q));
    if (ungrouped.length) fail(`queries without a group: ${list(ungrouped)}`);
    const strays = Object.keys(groups).filter((q) => !Object.hasOwn(queries, q));
    if (strays.length) fail(`groups for unknown queries: ${list(strays)}`);
  }
}
