/**
 * OKF: conformance validation of Open Knowledge Format 0.2 bundles, the
 * generated `index.md` files, and output as text or SARIF.
 * @module
 */
export {
  type Gate,
  validateBundle,
  type ValidateOptions,
  type ValidationReport,
} from "./validate_bundle.ts";
export type { Finding, FindingLocation, RuleInfo, Severity } from "./finding.ts";
export { OKF_RULES } from "./okf_rules.ts";
export {
  applyIndexFixes,
  diffIndexFixes,
  type IndexChange,
  type IndexFixPlan,
  type IndexLeftAlone,
  planIndexFixes,
} from "./fix_indexes.ts";
export { formatReportText } from "./format_text.ts";
export { type SarifOptions, toSarif } from "./to_sarif.ts";
export { repoRootOf } from "./repo_root.ts";
export { type ChainLink, type GetOptions, getProfiles, type GetResult } from "./get_profiles.ts";
export { type Binding, type BoundProfile, readBinding } from "./read_binding.ts";
export { type BindingLocation, findBindingFile, locateBinding } from "./locate_binding.ts";
export { type Lock, type LockedPackage, type LockedProfile } from "./lock_file.ts";
export { type ProfileStatus, type ProjectOptions, validateProject } from "./validate_project.ts";
export {
  applyProfile,
  type ProfileChain,
  type ProfileOutcome,
  type UnsupportedRule,
} from "./apply_profile.ts";
export { OKF_FRONTMATTER_KEYS, runRuleTests, type Slots } from "./evaluate_rule.ts";
export { type ProfilePackage, type ProfileRule, readProfilePackage } from "./profile_package.ts";
export { WAYFINDER_RULES } from "./wayfinder_rules.ts";
export { type ConceptMeta, declaresOkf, isReservedFile, readConcept } from "./concept.ts";
export { chunkConcept, joinConcept, SUMMARY_TYPE } from "./chunk_concept.ts";
export { describeConcept, describeEntry } from "./describe_concept.ts";
export {
  asksAnything,
  checkGoverning,
  checkQualifiers,
  conceptOf,
  eligibility,
  type KnowledgePolicy,
  parseGoverning,
  type PolicyOrigins,
} from "./knowledge_policy.ts";
export {
  type BundleFiles,
  type ContextEntry,
  type KnowledgeAnswer,
  policyFilter,
  searchKnowledge,
} from "./knowledge_search.ts";
