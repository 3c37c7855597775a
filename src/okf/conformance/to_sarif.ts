/**
 * A validation report as SARIF 2.1.0, the format GitHub code scanning
 * uploads. Artifact URIs are relative to `repoRoot` (the checkout root), so
 * GitHub can place each result on its file; a file outside it (a
 * wayfinder.json above the checkout) gets an absolute `file://` URI.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Finding, RuleInfo, Severity } from "./finding.ts";
import { OKF_RULES } from "./okf_rules.ts";
import { WAYFINDER_RULES } from "./wayfinder_rules.ts";
import { PROJECT_URL } from "./rule_docs.ts";
import type { ValidationReport } from "./validate_bundle.ts";

const LEVEL: Record<Severity, "error" | "warning" | "note"> = {
  error: "error",
  advisory: "warning",
  note: "note",
};

/** What a rule's severity does to the gate, for its full description. */
const EFFECT: Record<Severity, string> = {
  error: "Severity error: while one stands, the gate is FAIL.",
  advisory: "Severity advisory: worth fixing, but it does not fail the gate by itself.",
  note: "Severity note: for information; it never fails the gate.",
};

/** Options for {@link toSarif}. */
export interface SarifOptions {
  /** Directory the artifact URIs are relative to. */
  repoRoot: string;
  toolVersion: string;
  /** Descriptions of non-OKF rules (Profile rules), by id. */
  rules?: ReadonlyMap<string, RuleInfo>;
}

/** The SARIF log for `report`. */
export function toSarif(report: ValidationReport, options: SarifOptions): Record<string, unknown> {
  const ids = [...new Set([...Object.keys(OKF_RULES), ...report.findings.map((f) => f.id)])];
  const ruleIndex = new Map(ids.map((id, i) => [id, i]));
  const bundle = realPath(report.bundle);
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "wayfinder",
          version: options.toolVersion,
          informationUri: PROJECT_URL,
          rules: ids.map((id) => sarifRule(id, ruleInfo(id, report.findings, options.rules))),
        },
      },
      results: report.findings.map((f) => ({
        ruleId: f.id,
        ruleIndex: ruleIndex.get(f.id),
        level: LEVEL[f.severity],
        message: { text: f.message },
        locations: [{
          physicalLocation: {
            artifactLocation: {
              uri: artifactUri(realPath(options.repoRoot), bundle, f.location.path),
            },
            region: { startLine: f.location.line, startColumn: f.location.column },
          },
        }],
      })),
    }],
  };
}

function ruleInfo(
  id: string,
  findings: Finding[],
  extra?: ReadonlyMap<string, RuleInfo>,
): RuleInfo {
  const known = (OKF_RULES as Record<string, RuleInfo>)[id] ?? extra?.get(id) ??
    (WAYFINDER_RULES as Record<string, RuleInfo>)[id];
  if (known) return known;
  const first = findings.find((f) => f.id === id)!;
  return { severity: first.severity, summary: first.message, helpUri: first.helpUri ?? "" };
}

function sarifRule(id: string, rule: RuleInfo) {
  return {
    id,
    ...(friendlyName(id) ? { name: friendlyName(id) } : {}),
    shortDescription: { text: rule.summary },
    // GitHub code scanning requires a full description of every rule (Multitool rule GH2012).
    fullDescription: { text: `${sentence(rule.summary)} ${EFFECT[rule.severity]}` },
    ...(rule.helpUri ? { helpUri: rule.helpUri } : {}),
    help: { text: rule.helpUri ? `${sentence(rule.summary)} See ${rule.helpUri}` : rule.summary },
    defaultConfiguration: { level: LEVEL[rule.severity] },
  };
}

/** The friendly name SARIF asks for: the id's last part in Pascal case (`okf/missing-type` → `MissingType`). */
function friendlyName(id: string): string {
  const words = id.slice(id.lastIndexOf("/") + 1).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

/** The summary as a sentence: Profile descriptions end with their own full stop already. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * A finding's file as a URI relative to the repository root, with forward
 * slashes; a file outside the root as an absolute `file://` URI, since a
 * `../` URI names no file of the repository and code scanning cannot place it.
 */
function artifactUri(repoRoot: string, bundle: string, path: string): string {
  const file = resolve(bundle, path);
  const rel = relative(repoRoot, file);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return pathToFileURL(file).href;
  }
  return rel.split("\\").join("/").split("/").map(encodeURIComponent).join("/");
}

/** git reports the top level with symlinks resolved; the bundle path must match it. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
