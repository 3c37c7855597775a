/**
 * Shape checks for the optional front matter families (§5, §10). Every
 * finding here is an advisory: §11 forbids rejecting a concept for them.
 */
import type { Finding } from "./finding.ts";
import type { BundleDocument } from "./load_bundle.ts";
import { type OkfRuleId, ruleFinding } from "./okf_rules.ts";
import { timeShape } from "./dates.ts";

type Report = (id: OkfRuleId, message: string) => void;

const STATUS_VALUES = ["draft", "stable", "deprecated"];

/** Advisories for malformed optional fields of one concept. */
export function checkOptionalFields(doc: BundleDocument): Finding[] {
  const fm = doc.frontMatter!;
  const findings: Finding[] = [];
  for (const [key, check] of Object.entries(FIELD_CHECKS)) {
    if (!(key in fm.data)) continue;
    const at = fm.keys.get(key) ?? { line: 1, column: 1 };
    const report: Report = (id, message) =>
      findings.push(ruleFinding(id, message, doc.path, at.line, at.column));
    check(fm.data[key], report);
  }
  if (fm.data.type === "Attested Computation") {
    const at = fm.keys.get("type") ?? { line: 1, column: 1 };
    for (const problem of computationProblems(fm.data, doc.body)) {
      findings.push(ruleFinding("okf/invalid-computation", problem, doc.path, at.line, at.column));
    }
  }
  return findings;
}

const FIELD_CHECKS: Record<string, (value: unknown, report: Report) => void> = {
  tags(value, report) {
    if (!Array.isArray(value) || !value.every(isText)) {
      report("okf/invalid-tags", "`tags` should be a list of non-empty strings");
    }
  },
  sources(value, report) {
    if (!Array.isArray(value)) {
      report(
        "okf/invalid-sources",
        "`sources` should be a list, one `- resource: …` entry per source",
      );
      return;
    }
    value.forEach((entry, i) => {
      const problem = sourceProblem(entry);
      if (problem) report("okf/invalid-source", `sources[${i}] ${problem}`);
      if (isMapping(entry)) checkTimes(entry.last_modified, `sources[${i}].last_modified`, report);
    });
  },
  usage_window(value, report) {
    checkUsageWindow(value, "usage_window", report);
  },
  generated(value, report) {
    if (!isMapping(value) || !isText(value.by) || ("at" in value && !isTime(value.at))) {
      report(
        "okf/invalid-generated",
        "`generated` should be a mapping with an actor `by` and an ISO 8601 `at`",
      );
    } else checkTimes(value.at, "generated.at", report);
  },
  verified(value, report) {
    const events = isMapping(value) ? [value] : Array.isArray(value) ? value : null;
    if (!events || !events.every((e) => isMapping(e) && isText(e.by) && isTime(e.at))) {
      report(
        "okf/invalid-verified",
        "`verified` should be a `{by, at}` mapping or a list of them, each `at` an ISO 8601 time",
      );
      return;
    }
    // Named as written: a single mapping has no `[0]` the user could look for.
    const name = (i: number) => Array.isArray(value) ? `verified[${i}].at` : "verified.at";
    events.forEach((e, i) => checkTimes(e.at, name(i), report));
  },
  status(value, report) {
    if (typeof value !== "string" || !STATUS_VALUES.includes(value)) {
      report(
        "okf/invalid-status",
        `\`status\` should be draft, stable or deprecated, not ${JSON.stringify(value)}`,
      );
    }
  },
  stale_after(value, report) {
    if (!isTime(value)) {
      report("okf/invalid-stale-after", "`stale_after` should be a YYYY-MM-DD date");
    } else checkTimes(value, "stale_after", report);
  },
  timestamp(value, report) {
    checkTimes(value, "timestamp", report);
  },
};

function sourceProblem(entry: unknown): string | null {
  if (!isMapping(entry)) return "should be a mapping";
  if (!isText(entry.resource)) return "needs a non-empty `resource`";
  if ("id" in entry && !isText(entry.id) && typeof entry.id !== "number") {
    return "has an `id` that is not a string";
  }
  if ("author" in entry && !isText(entry.author)) return "has an `author` that is not an actor";
  const count = entry.usage_count;
  if ("usage_count" in entry && !(Number.isInteger(count) && (count as number) >= 0)) {
    return "has a `usage_count` that is not a whole number";
  }
  if ("last_modified" in entry && !isTime(entry.last_modified)) {
    return "has a `last_modified` that is not a YYYY-MM-DD date";
  }
  if ("usage_window" in entry && !isWindow(entry.usage_window)) {
    return "has a `usage_window` that is not a `{from, to}` mapping of dates";
  }
  return null;
}

function checkUsageWindow(value: unknown, name: string, report: Report): void {
  if (!isWindow(value)) {
    report("okf/invalid-usage-window", `\`${name}\` should be a \`{from, to}\` mapping of dates`);
    return;
  }
  checkTimes((value as Record<string, unknown>).from, `${name}.from`, report);
  checkTimes((value as Record<string, unknown>).to, `${name}.to`, report);
}

function isWindow(value: unknown): boolean {
  return isMapping(value) && isTime(value.from) && isTime(value.to);
}

/** Reports a date-time written without an offset: it names no single instant. */
function checkTimes(value: unknown, name: string, report: Report): void {
  if (timeShape(value) === "local-time") {
    report(
      "okf/timestamp-without-offset",
      `\`${name}\` has a time of day but no UTC offset (add Z or ±hh:mm)`,
    );
  }
}

function computationProblems(data: Record<string, unknown>, body: string): string[] {
  const problems: string[] = [];
  if (!isText(data.runtime)) problems.push("An Attested Computation needs a non-empty `runtime`");
  const params = data.parameters;
  if (
    params !== undefined &&
    !(Array.isArray(params) && params.every((p) => isMapping(p) && isText(p.name)))
  ) {
    problems.push("`parameters` should be a list of `{name, type, required}` mappings");
  }
  for (const key of ["executor", "attester"]) {
    const value = data[key];
    if (value !== undefined && !(isMapping(value) && isText(value.resource))) {
      problems.push(`\`${key}\` should be a mapping with a non-empty \`resource\``);
    }
  }
  if (data.computation !== undefined && !isText(data.computation)) {
    problems.push("`computation` should be a path");
  } else if (data.computation === undefined && !/^#[ \t]+Computation[ \t]*$/m.test(body)) {
    problems.push(
      "An Attested Computation needs a `computation` path or a `# Computation` section",
    );
  }
  return problems;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

function isTime(value: unknown): boolean {
  return timeShape(value) !== "invalid";
}
