/**
 * validate's own rules about the project around a bundle: its binding,
 * lock and cache. None is an error: they explain a gate of INCOMPLETE or
 * point at something to look at.
 */
import { type Finding, ruleFindingOf, type RuleInfo } from "./finding.ts";
import { ruleDocsUri } from "./rule_docs.ts";

/** `rules`, each explained under its own heading of docs/rules.md. */
function explained<Id extends string>(
  rules: Record<Id, Omit<RuleInfo, "helpUri">>,
): Record<Id, RuleInfo> {
  const entries = Object.entries<Omit<RuleInfo, "helpUri">>(rules)
    .map(([id, rule]) => [id, { ...rule, helpUri: ruleDocsUri(id) }]);
  return Object.fromEntries(entries) as Record<Id, RuleInfo>;
}

export const WAYFINDER_RULES = explained({
  "wayfinder/profile-unresolved": {
    severity: "advisory",
    summary:
      "A bound Profile is not locked or not cached, so its rules were not applied: run 'wayfinder get'",
  },
  "wayfinder/profile-unbound": {
    severity: "advisory",
    summary:
      "A bound Profile's applies_to names a folder that does not exist, so its rules were applied to no bundle there",
  },
  "wayfinder/bundle-unbound": {
    severity: "note",
    summary: "wayfinder.json binds Profiles, but none applies to this bundle",
  },
  "wayfinder/rule-unsupported": {
    severity: "advisory",
    summary:
      "A Profile rule names a subject, list, builtin or generator this wayfinder does not know, or its schema does not compile",
  },
  "wayfinder/project-type": {
    severity: "note",
    summary: "wayfinder.json declares a project type that no Profile in the chain defines",
  },
  "wayfinder/config-unknown-key": {
    severity: "advisory",
    summary:
      "wayfinder.json has a top-level key that neither the binding nor wayfinder's settings define",
  },
});

/** A wayfinder rule id. */
export type WayfinderRuleId = keyof typeof WAYFINDER_RULES;

/** A finding of a wayfinder rule at `path`, on the line where `needle` first appears in `text`. */
export function wayfinderFinding(
  id: WayfinderRuleId,
  message: string,
  path: string,
  text = "",
  needle = "",
): Finding {
  const offset = needle ? text.indexOf(needle) : -1;
  const line = offset < 0 ? 1 : text.slice(0, offset).split("\n").length;
  const column = offset < 0 ? 1 : offset - text.lastIndexOf("\n", offset - 1);
  return ruleFindingOf(WAYFINDER_RULES, id, message, path, line, column);
}
