/**
 * The OKF 0.2 rules validate applies, as data: id, severity, a one-line
 * summary (used for SARIF rule descriptions) and the spec section that
 * explains it. Severity follows §11: only the three conformance conditions
 * are errors; malformed optional families are advisories; tolerated
 * oddities (broken links) are notes.
 */
import { type Finding, ruleFindingOf, type RuleInfo } from "./finding.ts";

const SPEC = "https://github.com/GoogleCloudPlatform/knowledge-catalog/blob/main/okf/SPEC.md";

export const OKF_RULES = {
  "okf/invalid-utf8": {
    severity: "error",
    summary: "A markdown file is not valid UTF-8",
    helpUri: `${SPEC}#4-concept-documents`,
  },
  "okf/unreadable": {
    severity: "error",
    summary: "A markdown file could not be read",
    helpUri: `${SPEC}#11-conformance`,
  },
  "okf/non-utf8-name": {
    severity: "error",
    summary: "A markdown file's or folder's name is not UTF-8, so it cannot be read",
    helpUri: `${SPEC}#11-conformance`,
  },
  "okf/missing-front-matter": {
    severity: "error",
    summary: "A concept document has no YAML front matter block",
    helpUri: `${SPEC}#41-frontmatter`,
  },
  "okf/invalid-front-matter": {
    severity: "error",
    summary: "A front matter block is not a parseable YAML mapping",
    helpUri: `${SPEC}#41-frontmatter`,
  },
  "okf/missing-type": {
    severity: "error",
    summary: "A concept's front matter has no non-empty string `type`",
    helpUri: `${SPEC}#41-frontmatter`,
  },
  "okf/index-front-matter": {
    severity: "error",
    summary: "An index carries front matter other than the root index's `okf_version`",
    helpUri: `${SPEC}#8-index-files`,
  },
  "okf/index-structure": {
    severity: "error",
    summary: "An index holds something other than level-one sections of linked list entries",
    helpUri: `${SPEC}#8-index-files`,
  },
  "okf/log-structure": {
    severity: "error",
    summary: "A log is not one title, ISO-date headings newest first, and entries under them",
    helpUri: `${SPEC}#9-log-files`,
  },
  "okf/no-documents": {
    severity: "error",
    summary: "The folder holds no Markdown document at all, so it is no bundle (a mistyped path?)",
    helpUri: `${SPEC}#3-bundle-structure`,
  },
  "okf/unsupported-version": {
    severity: "advisory",
    summary: "The root index declares an `okf_version` this validator does not know",
    helpUri: `${SPEC}#12-versioning`,
  },
  "okf/invalid-tags": {
    severity: "advisory",
    summary: "`tags` is not a list of non-empty strings",
    helpUri: `${SPEC}#41-frontmatter`,
  },
  "okf/invalid-sources": {
    severity: "advisory",
    summary: "`sources` is not a list",
    helpUri: `${SPEC}#51-provenance-sources`,
  },
  "okf/invalid-source": {
    severity: "advisory",
    summary: "A `sources` entry is not a mapping with a non-empty `resource`, or has a bad signal",
    helpUri: `${SPEC}#51-provenance-sources`,
  },
  "okf/invalid-usage-window": {
    severity: "advisory",
    summary: "`usage_window` is not a `{from, to}` mapping of dates",
    helpUri: `${SPEC}#51-provenance-sources`,
  },
  "okf/invalid-generated": {
    severity: "advisory",
    summary: "`generated` is not a mapping with an actor `by` and an ISO 8601 `at`",
    helpUri: `${SPEC}#52-trust-generated-and-verified`,
  },
  "okf/invalid-verified": {
    severity: "advisory",
    summary: "`verified` is not a `{by, at}` mapping or a list of them",
    helpUri: `${SPEC}#52-trust-generated-and-verified`,
  },
  "okf/invalid-status": {
    severity: "advisory",
    summary: "`status` is not draft, stable or deprecated",
    helpUri: `${SPEC}#54-lifecycle-status`,
  },
  "okf/invalid-stale-after": {
    severity: "advisory",
    summary: "`stale_after` is not a YYYY-MM-DD date",
    helpUri: `${SPEC}#55-lifecycle-stale_after`,
  },
  "okf/timestamp-without-offset": {
    severity: "advisory",
    summary: "A timestamp has a time of day but no UTC offset, so it names no instant",
    helpUri: `${SPEC}#52-trust-generated-and-verified`,
  },
  "okf/invalid-computation": {
    severity: "advisory",
    summary: "An Attested Computation's computation fields are missing or malformed",
    helpUri: `${SPEC}#102-contract-fields`,
  },
  "okf/broken-link": {
    severity: "note",
    summary: "A link points at nothing in the bundle (tolerated: it may be unwritten knowledge)",
    helpUri: `${SPEC}#61-links-between-concepts`,
  },
} as const satisfies Record<string, RuleInfo>;

/** An OKF rule id. */
export type OkfRuleId = keyof typeof OKF_RULES;

/** A finding for an OKF rule, carrying the rule's severity and help link. */
export function ruleFinding(
  id: OkfRuleId,
  ...at: [message: string, path: string, line?: number, column?: number]
): Finding {
  return ruleFindingOf(OKF_RULES, id, ...at);
}
