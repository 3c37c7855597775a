/**
 * Applies a resolved Profile chain to a loaded bundle: each package's rules,
 * parents first, with slots filled from the chain's vocabulary and the
 * project's binding. Findings are namespaced `<profile-id>/<rule-id>` and
 * link to the package's docs at `#<rule-id>`.
 */
import { runBuiltin } from "./builtin_rules.ts";
import {
  actorItems,
  bundleIndexOf,
  CONCEPT_LISTS,
  type ConceptFacts,
  conceptFacts,
  type ConceptList,
  type Located,
  logFacts,
  rootFacts,
} from "./concept_facts.ts";
import { OKF_FRONTMATTER_KEYS, RuleCompiler, type Slots } from "./evaluate_rule.ts";
import { type Finding, finding, type RuleInfo } from "../conformance/mod.ts";
import type { LoadedBundle } from "../conformance/mod.ts";
import type { Position } from "../conformance/mod.ts";
import type { ProfilePackage, ProfileRule } from "./profile_package.ts";
import type { BoundProfile } from "./read_binding.ts";

/** A bound Profile with its packages, the bound package first and its parents after. */
export interface ProfileChain {
  bound: BoundProfile;
  packages: ProfilePackage[];
}

/** A rule this wayfinder cannot evaluate as written, so it was not applied. */
export interface UnsupportedRule {
  /** `<profile-id>/<rule-id>`. */
  id: string;
  /** Why, as a clause: "its subject 'x' is unknown to this wayfinder". */
  reason: string;
}

/** The Profile's findings, and the rules that could not be applied. */
export interface ProfileOutcome {
  findings: Finding[];
  /**
   * Rules with an unknown subject, `each` list, builtin or generator, or a
   * schema that does not compile: applying them any other way would pass
   * what they were written to catch.
   */
  unsupported: UnsupportedRule[];
}

const START: Position = { line: 1, column: 1 };

/** The vocabulary slots a chain and its binding put in force. */
export function slotsOf(chain: ProfileChain): Slots {
  const names = (pick: (p: ProfilePackage) => { name: string }[], own: { name: string }[] = []) => [
    ...new Set([...chain.packages.flatMap(pick), ...own].map((v) => v.name)),
  ];
  const actors = Object.entries(chain.bound.actors).filter(([, r]) =>
    typeof r.name === "string" && r.name.trim() !== ""
  );
  return {
    "okf.frontmatterKeys": OKF_FRONTMATTER_KEYS,
    "profile.types": names((p) => p.types, chain.bound.types),
    "profile.tags": names((p) => p.tags, chain.bound.tags),
    "profile.relationships": names((p) => p.relationships, chain.bound.relationships),
    "profile.frontmatterKeys": names((p) => p.frontmatterKeys),
    "profile.actors": actors.map(([id]) => id),
  };
}

/** Runs every rule of the chain over `bundle`. */
export function applyProfile(bundle: LoadedBundle, chain: ProfileChain): ProfileOutcome {
  const slots = slotsOf(chain);
  const index = bundleIndexOf(bundle);
  const concepts = bundle.documents.filter((d) => d.kind === "concept" && d.frontMatter)
    .map((d) => conceptFacts(d, index));
  const subjects = subjectItems(bundle, concepts);
  const compiler = new RuleCompiler();
  const outcome: ProfileOutcome = { findings: [], unsupported: [] };
  for (const pkg of [...chain.packages].reverse()) {
    for (const rule of pkg.rules) {
      const id = `${pkg.id}/${rule.id}`;
      const report: Report = (path, at, vars, variant) =>
        outcome.findings.push(profileFinding(pkg, rule, path, at, vars, variant));
      let unsupported: string | null;
      if (rule.check.builtin) unsupported = applyBuiltinRule(rule, bundle, report);
      else {
        const compiled = compiler.compile(id, rule, pkg.defs, slots);
        unsupported = compiled.ok
          ? applySchemaRule(rule, concepts, subjects, (facts) => compiled.validate(facts), report)
          : compiled.reason;
      }
      if (unsupported) outcome.unsupported.push({ id, reason: unsupported });
    }
  }
  return outcome;
}

type Report = (
  path: string,
  at: Position,
  vars: Record<string, unknown>,
  variant?: string,
) => void;

/** Runs a builtin rule. Returns why it cannot (an unknown builtin or generator), else null. */
function applyBuiltinRule(rule: ProfileRule, bundle: LoadedBundle, report: Report): string | null {
  const failures = runBuiltin(rule.check, bundle);
  if ("unsupported" in failures) return failures.unsupported;
  for (const f of failures) report(f.path, f.at, f.vars, f.variant);
  return null;
}

/** Subjects other than concepts, as located items with the path a finding points at. */
function subjectItems(bundle: LoadedBundle, concepts: ConceptFacts[]) {
  const log = logFacts(bundle);
  return {
    actor: actorItems(concepts).map((i) => ({ ...i, path: i.facts.first_use as string })),
    file: bundle.files.map((path) => ({
      facts: { path, name: path.slice(path.lastIndexOf("/") + 1), markdown: path.endsWith(".md") },
      at: START,
      path,
    })),
    directory: bundle.dirs.filter((d) => d !== "").map((path) => ({
      facts: { path, has_index: bundle.files.includes(`${path}/index.md`) },
      at: START,
      path,
    })),
    root: [{ facts: rootFacts(bundle), at: START, path: "index.md" }],
    log: log ? [{ facts: log, at: START, path: "log.md" }] : [],
  } as Record<string, (Located & { path: string })[]>;
}

/**
 * Applies a schema rule to its subject. Returns why it cannot (an unknown
 * subject or `each` list), else null.
 */
function applySchemaRule(
  rule: ProfileRule,
  concepts: ConceptFacts[],
  subjects: Record<string, (Located & { path: string })[]>,
  check: (facts: unknown) => boolean,
  report: Report,
): string | null {
  const { subject = "concept", each } = rule.check;
  const ofConcepts = subject === "concept" || subject === "frontmatter";
  if (!ofConcepts && !Object.hasOwn(subjects, subject)) {
    return `its subject '${subject}' is unknown to this wayfinder`;
  }
  if (each !== undefined && !(ofConcepts && isConceptList(each))) {
    return ofConcepts
      ? `its 'each' names '${each}', which is no list of a concept (${CONCEPT_LISTS.join(", ")})`
      : `its 'each' names '${each}', but only concept and frontmatter rules check each item of a list`;
  }
  if (!ofConcepts) {
    for (const item of subjects[subject]!) {
      if (!check(item.facts)) report(item.path, item.at, item.facts);
    }
    return null;
  }
  for (const c of concepts) {
    if (each !== undefined) checkEach(rule, each as ConceptList, c, check, report);
    else {
      const facts = subject === "concept" ? c.facts : c.doc.frontMatter!.data;
      if (!check(facts)) {
        report(c.doc.path, keyPosition(rule, c), { ...c.doc.frontMatter!.data, ...c.facts });
      }
    }
  }
  return null;
}

function isConceptList(name: unknown): name is ConceptList {
  return (CONCEPT_LISTS as readonly unknown[]).includes(name);
}

function checkEach(
  rule: ProfileRule,
  each: ConceptList,
  c: ConceptFacts,
  check: (f: unknown) => boolean,
  report: Report,
) {
  const failing = c.lists[each].filter((item) => !check(item.facts));
  if (failing.length === 0) return;
  const field = rule.check.failing_field ?? "value";
  const values = failing.map((f) => f.facts[field] ?? f.facts.value);
  report(c.doc.path, failing[0]!.at, { ...c.facts, failing: values.map(shown).join(", ") });
}

/**
 * The position of the first key the rule's schema names: a derived fact's own
 * position (the repeated source id), else the front matter key, else the file start.
 */
function keyPosition(rule: ProfileRule, c: ConceptFacts): Position {
  for (const key of namedKeys(rule.check.schema ?? {})) {
    const at = c.positions[key] ?? c.doc.frontMatter!.keys.get(key);
    if (at) return at;
  }
  return START;
}

/** Keys a schema names at its top level or in its if/then branches. */
function namedKeys(schema: Record<string, unknown>): string[] {
  const branches = [schema, schema.then, schema.if].filter((s): s is Record<string, unknown> =>
    typeof s === "object" && s !== null
  );
  return branches.flatMap((s) => [
    ...Object.keys((s.properties ?? {}) as object),
    ...((s.required ?? []) as string[]),
  ]);
}

function profileFinding(
  pkg: ProfilePackage,
  rule: ProfileRule,
  path: string,
  at: Position,
  vars: Record<string, unknown>,
  variant?: string,
): Finding {
  const template = typeof rule.message === "string"
    ? rule.message
    : rule.message[variant ?? ""] ?? Object.values(rule.message)[0] ?? rule.id;
  const message = template.replace(
    /\{([\w.]+)\}/g,
    (m, name) => name in vars ? shown(vars[name]) : m,
  );
  const helpUri = profileRuleInfo(pkg, rule).helpUri || undefined;
  return finding(`${pkg.id}/${rule.id}`, rule.severity, message, path, at.line, at.column, helpUri);
}

/** Every rule of the chain by finding id, described as SARIF describes rules. */
export function chainRuleInfo(chain: ProfileChain): Map<string, RuleInfo> {
  return new Map(
    chain.packages.flatMap((pkg) =>
      pkg.rules.map((rule) => [`${pkg.id}/${rule.id}`, profileRuleInfo(pkg, rule)] as const)
    ),
  );
}

function profileRuleInfo(pkg: ProfilePackage, rule: ProfileRule): RuleInfo {
  const template = typeof rule.message === "string" ? rule.message : rule.id;
  return {
    severity: rule.severity,
    summary: rule.description ?? template,
    helpUri: pkg.docs ? `${pkg.docs}#${rule.id}` : "",
  };
}

/** A value as a message shows it: text as is, an empty or missing one as "(none)", others as JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "(none)";
  return typeof value === "string" ? value : JSON.stringify(value);
}
