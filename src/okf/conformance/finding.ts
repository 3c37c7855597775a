/** One validation finding and the helpers that order and count them. */

/** `error` fails conformance; `advisory` and `note` never do. */
export type Severity = Finding["severity"];

/** Where a finding points: a bundle-relative posix path and a 1-based position. */
export type FindingLocation = Finding["location"];

/**
 * A single thing validate has to say about a bundle.
 *
 * @example Where each finding points
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateBundle } from "../../mod.ts";
 *
 * const { findings } = await validateBundle("fixtures/okf/invalid");
 * const status = findings.find((finding) => finding.id === "okf/invalid-status")!;
 * assert.equal(status.severity, "advisory");
 * assert.deepEqual(status.location, { path: "area/advisories.md", line: 4, column: 1 });
 * ```
 */
export interface Finding {
  /** Namespaced rule id, e.g. `okf/missing-type` or `<profile-id>/<rule-id>`. */
  id: string;
  /** How much the finding matters: an error fails the gate. */
  severity: "error" | "advisory" | "note";
  /** What is wrong, in one sentence. */
  message: string;
  /** Where: the file, relative to the bundle root, and a 1-based line and column. */
  location: { path: string; line: number; column: number };
  /** Where the rule is explained. */
  helpUri?: string;
}

/** How a rule is described (SARIF rule descriptions): severity, one-line summary, help link ("" for none). */
export interface RuleInfo {
  severity: Severity;
  summary: string;
  helpUri: string;
}

/** A finding of rule `id` of `rules` at `path:line:column`, with the rule's severity and help link. */
export function ruleFindingOf<Id extends string>(
  rules: Readonly<Record<Id, RuleInfo>>,
  id: Id,
  message: string,
  path: string,
  line = 1,
  column = 1,
): Finding {
  const rule: RuleInfo = rules[id];
  return finding(id, rule.severity, message, path, line, column, rule.helpUri);
}

/** Builds a finding at `path:line:column` (line and column default to 1). */
export function finding(
  id: string,
  severity: Severity,
  message: string,
  path: string,
  line = 1,
  column = 1,
  helpUri?: string,
): Finding {
  return {
    id,
    severity,
    message,
    location: { path, line, column },
    ...(helpUri ? { helpUri } : {}),
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders findings by path, line, column, then id (and message, so the order is total). */
export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort((a, b) =>
    compareText(a.location.path, b.location.path) ||
    a.location.line - b.location.line ||
    a.location.column - b.location.column ||
    compareText(a.id, b.id) ||
    compareText(a.message, b.message)
  );
}

/** How many findings of each severity. */
export function countFindings(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, advisory: 0, note: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}
