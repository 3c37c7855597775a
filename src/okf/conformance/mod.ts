/**
 * OKF conformance: parsing and loading an Open Knowledge Format 0.2 bundle,
 * validating it, fixing its generated `index.md` files, and the report as
 * text or SARIF. The second group of exports is what `profiles/` and
 * `knowledge/` build on (the bundle as loaded, front matter, links).
 * @module
 */
export {
  type Gate,
  okfFindings,
  reportOf,
  validateBundle,
  type ValidateOptions,
  type ValidationReport,
} from "./validate_bundle.ts";
export {
  type Finding,
  finding,
  type FindingLocation,
  type RuleInfo,
  type Severity,
} from "./finding.ts";
export { OKF_RULES } from "./okf_rules.ts";
export { WAYFINDER_RULES, wayfinderFinding, type WayfinderRuleId } from "./wayfinder_rules.ts";
export {
  applyIndexFixes,
  diffIndexFixes,
  type IndexChange,
  type IndexFixPlan,
  type IndexLeftAlone,
  planIndexFixes,
} from "./fix_indexes.ts";
export { formatReportText, type ProfileLine } from "./format_text.ts";
export { type SarifOptions, toSarif } from "./to_sarif.ts";
export { repoRootOf } from "./repo_root.ts";

export { type BundleDocument, loadBundle, type LoadedBundle } from "./load_bundle.ts";
export { parseYamlBlock, type Position, splitFrontMatter } from "./parse_front_matter.ts";
export { findLinks, resolveLink } from "./find_links.ts";
export { bodyLines } from "./body_lines.ts";
export { type GeneratedIndex, generateIndexes } from "./generate_indexes.ts";
