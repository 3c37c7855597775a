/** OKF 0.2 conformance of a bundle directory (§11), as a sorted list of findings. */
import { checkConcept } from "./check_concept.ts";
import { checkIndex } from "./check_index.ts";
import { checkLinks } from "./check_links.ts";
import { checkLog } from "./check_log.ts";
import { countFindings, type Finding, sortFindings } from "./finding.ts";
import { fixWrites } from "./fix_indexes.ts";
import { loadBundle, type LoadedBundle } from "./load_bundle.ts";
import { ruleFinding } from "./okf_rules.ts";

/** PASS: no errors. FAIL: at least one error. INCOMPLETE: a bound Profile could not be applied. */
export type Gate = ValidationReport["gate"];

/**
 * What validate found.
 *
 * @example A broken bundle fails the gate
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateBundle } from "../../mod.ts";
 *
 * const report = await validateBundle("fixtures/okf/invalid");
 * assert.equal(report.gate, "FAIL");
 * assert.equal(report.conformant, false);
 * assert.equal(report.counts.error, report.findings.filter((f) => f.severity === "error").length);
 * ```
 */
export interface ValidationReport {
  /** Absolute path of the bundle root. */
  bundle: string;
  /** The verdict. PASS: no errors. FAIL: at least one error. INCOMPLETE: a bound Profile could not be applied. */
  gate: "PASS" | "FAIL" | "INCOMPLETE";
  /** True when no finding is an error. */
  conformant: boolean;
  /** Findings by severity. */
  counts: Record<"error" | "advisory" | "note", number>;
  /** Sorted by path, line, column, id. */
  findings: Finding[];
  /** Markdown files read, and how many of them are concepts. */
  documents: number;
  /** Of `documents`, how many are concepts. */
  concepts: number;
}

/** Options for {@link validateBundle}. */
export interface ValidateOptions {
  /** Extra checks over the loaded bundle (Profile rules), run after the OKF ones. */
  extraChecks?: ((bundle: LoadedBundle) => Finding[])[];
}

/**
 * Validates the OKF bundle at `dir`: front matter and `type` of every
 * concept, the structure of index and log files, the shape of optional
 * fields (advisories) and internal links (notes). Never writes.
 *
 * @param dir The bundle root directory.
 * @param options Extra checks to run over the same loaded bundle.
 * @returns The findings, sorted, with counts and the gate.
 * @throws {WayfinderError} `io` when `dir` does not exist; `usage` when it is a file.
 * @example Validate a bundle
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateBundle } from "./mod.ts";
 * const report = await validateBundle("fixtures/okf/valid");
 * assert.equal(report.gate, "PASS");
 * ```
 */
export function validateBundle(
  dir: string,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const bundle = loadBundle(dir);
  const findings = [...bundle.findings, ...okfFindings(bundle)];
  for (const check of options.extraChecks ?? []) append(findings, check(bundle));
  return Promise.resolve(reportOf(bundle, findings));
}

/** The OKF checks of every loaded document, and of the folder holding any. */
export function okfFindings(bundle: LoadedBundle): Finding[] {
  const existing = new Set([...bundle.files, ...bundle.dirs]);
  const fixable = fixWrites(bundle);
  const findings: Finding[] = noDocuments(bundle);
  for (const doc of bundle.documents) {
    if (doc.kind === "concept") append(findings, checkConcept(doc));
    else if (doc.kind === "index") {
      append(findings, checkIndex(doc, doc.path === "index.md", fixable));
    } else append(findings, checkLog(doc));
    append(findings, checkLinks(doc, existing, fixable));
  }
  return findings;
}

/**
 * An error for a folder without a single Markdown document (concept, index
 * or log), read or not: nothing in it is checked, so it must not pass as a
 * conformant bundle (a mistyped path, or `src` for `docs`). A bundle without
 * index.md is fine (§8 makes it optional), and documents that fail to read
 * have errors of their own.
 */
function noDocuments(bundle: LoadedBundle): Finding[] {
  if (bundle.files.some((path) => path.endsWith(".md")) || bundle.badNames.length > 0) return [];
  return [
    ruleFinding(
      "okf/no-documents",
      `No OKF documents in '${bundle.root}': no Markdown concept, index.md or log.md was found; ` +
        "is this the bundle's folder?",
      ".",
    ),
  ];
}

/** Sorts, counts and gates a set of findings. */
export function reportOf(
  bundle: LoadedBundle,
  findings: Finding[],
  incomplete = false,
): ValidationReport {
  const counts = countFindings(findings);
  const conformant = counts.error === 0;
  return {
    bundle: bundle.root,
    gate: !conformant ? "FAIL" : incomplete ? "INCOMPLETE" : "PASS",
    conformant,
    counts,
    findings: sortFindings(findings),
    documents: bundle.documents.length,
    concepts: bundle.documents.filter((d) => d.kind === "concept").length,
  };
}

/** push(...items) overflows the call stack on very long lists; a loop does not. */
function append(target: Finding[], items: Finding[]): void {
  for (const item of items) target.push(item);
}
