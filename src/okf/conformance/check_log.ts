/**
 * Structure of a `log.md` (§9): one `# ` title, then `## YYYY-MM-DD`
 * headings newest first, each with entries under it.
 */
import { type BodyLine, bodyLines, COMMENT } from "./body_lines.ts";
import { isDate } from "./dates.ts";
import type { Finding } from "./finding.ts";
import type { BundleDocument } from "./load_bundle.ts";
import { ruleFinding } from "./okf_rules.ts";

interface LogState {
  title: BodyLine | null;
  /** The current date heading and whether an entry followed it. */
  date: { line: BodyLine; value: string; label: string; entries: number } | null;
  /** The line of each valid date heading met so far, to tell a repeat from a misordering. */
  seen: Map<string, number>;
}

/** Findings for one log file. */
export function checkLog(doc: BundleDocument): Finding[] {
  const findings: Finding[] = [];
  const problem = (l: BodyLine, message: string) =>
    findings.push(ruleFinding("okf/log-structure", message, doc.path, l.line, 1));
  const state: LogState = { title: null, date: null, seen: new Map() };
  let inFence = false;
  for (const l of bodyLines(doc.body, doc.bodyLine)) {
    if (l.inFence && !inFence) problem(l, "A log holds dated entries, not code blocks");
    inFence = l.inFence;
    if (l.inFence || l.text.trim() === "" || COMMENT.test(l.text)) continue;
    checkLogLine(l, state, problem);
  }
  const start = { text: "", line: doc.bodyLine, inFence: false };
  if (!state.title) problem(start, "A log starts with one '# ' title");
  if (state.date && state.date.entries === 0) {
    problem(state.date.line, `Date ${state.date.label} has no entries under it`);
  }
  return findings;
}

function checkLogLine(l: BodyLine, state: LogState, problem: (l: BodyLine, m: string) => void) {
  const heading = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/.exec(l.text);
  if (heading?.[1] === "#") {
    if (state.title || state.date) problem(l, "A log has one '# ' title, before its dates");
    state.title ??= l;
  } else if (heading?.[1] === "##") {
    const value = heading[2]!;
    const first = state.seen.get(value);
    if (!isDate(value)) problem(l, `Date heading '${value}' should be an ISO date, YYYY-MM-DD`);
    else if (first !== undefined) {
      problem(
        l,
        `Date ${value} appears more than once (first on line ${first}); group its entries under one heading`,
      );
    } else if (state.date && value > state.date.value) {
      problem(l, `Dates run newest first: ${value} should come before ${state.date.value}`);
    }
    if (isDate(value) && first === undefined) state.seen.set(value, l.line);
    if (state.date && state.date.entries === 0) {
      problem(state.date.line, `Date ${state.date.label} has no entries under it`);
    }
    // An invalid date keeps the previous one for the ordering check.
    const kept = isDate(value) ? value : state.date?.value ?? "9999-12-31";
    state.date = { line: l, value: kept, label: value, entries: 0 };
  } else if (heading) {
    problem(l, "A log uses only a '# ' title and '## YYYY-MM-DD' date headings");
  } else if (!state.date) {
    problem(l, "A log entry belongs under a '## YYYY-MM-DD' date heading");
  } else {
    // Entries are prose: a list item, its continuation, or a paragraph under the date.
    state.date.entries++;
  }
}
