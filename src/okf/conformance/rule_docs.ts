/**
 * Where wayfinder's own documentation is published, for links that leave the
 * machine: SARIF's `informationUri` and the `helpUri` of wayfinder's rules.
 * The one place that names the repository.
 */

/** The repository that publishes wayfinder's source and docs/. */
export const PROJECT_URL = "https://github.com/wayfinder-search/wayfinder";

/** docs/rules.md as published: every rule id validate reports, with what it means. */
export const RULES_DOCS = `${PROJECT_URL}/blob/main/docs/rules.md`;

/** The link to the heading `id` of docs/rules.md. */
export function ruleDocsUri(id: string): string {
  return `${RULES_DOCS}#${headingAnchor(id)}`;
}

/**
 * The anchor GitHub gives a Markdown heading: lower case, punctuation other
 * than `-` and `_` dropped, spaces as `-` (`wayfinder/rule-unsupported` →
 * `wayfinderrule-unsupported`).
 */
export function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}
