/**
 * OKF Profiles: the binding in wayfinder.json, `get` (resolve, lock, cache,
 * install skills), Profile packages and their rules, and validating a
 * project's bundles against the Profiles bound to them.
 * @module
 */
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
