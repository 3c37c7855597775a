/**
 * Evaluates a Profile rule's JSON Schema with ajv. Slots (`x-slot` defs, or
 * `$ref`s to `#/$defs/<slot>`) are filled with the vocabulary in force, so a
 * rule such as "every type is declared" is plain data.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { oneLine } from "../../error.ts";
import type { ProfileRule } from "./profile_package.ts";

/** Slot name → allowed values, e.g. `profile.types` → ["Guide", "Request"]. */
export type Slots = Record<string, readonly string[]>;

/** The front matter keys OKF 0.2 defines (§4.1, §5, §10): the `okf.frontmatterKeys` slot. */
export const OKF_FRONTMATTER_KEYS = [
  "type",
  "title",
  "description",
  "resource",
  "tags",
  "sources",
  "usage_window",
  "generated",
  "verified",
  "status",
  "stale_after",
  "runtime",
  "parameters",
  "computation",
  "executor",
  "attester",
];

/** A rule's validator, or why its schema does not compile (a bad pattern, a `$ref` to nothing). */
export type CompiledRule = { ok: true; validate: ValidateFunction } | { ok: false; reason: string };

/** Compiles rule schemas once per rule and slot set. */
export class RuleCompiler {
  #ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false });
  #cache = new Map<string, CompiledRule>();

  /** The validator for `rule` of a package with `defs`, under `slots`. */
  compile(
    key: string,
    rule: ProfileRule,
    defs: Record<string, unknown>,
    slots: Slots,
  ): CompiledRule {
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const schema = rule.check.schema ?? {};
    const allDefs: Record<string, unknown> = {};
    for (const [name, values] of Object.entries(slots)) allDefs[name] = oneOf(values);
    for (const [name, def] of Object.entries(defs)) {
      const slot = (def as Record<string, unknown>)?.["x-slot"];
      allDefs[name] = typeof slot === "string" ? oneOf(slots[slot] ?? []) : def;
    }
    Object.assign(allDefs, schema.$defs ?? {});
    let compiled: CompiledRule;
    try {
      compiled = { ok: true, validate: this.#ajv.compile({ ...schema, $defs: allDefs }) };
    } catch (error) {
      const reason = `its schema does not compile (${oneLine((error as Error).message)})`;
      compiled = { ok: false, reason };
    }
    this.#cache.set(key, compiled);
    return compiled;
  }
}

/** A schema admitting exactly `values`; JSON Schema forbids an empty enum, so none is `not: {}`. */
function oneOf(values: readonly string[]): Record<string, unknown> {
  return values.length ? { enum: [...values] } : { not: {} };
}

/** Runs a rule's own `tests`: every valid example must pass and every invalid one fail. */
export function runRuleTests(
  rule: ProfileRule,
  defs: Record<string, unknown>,
  packageSlots: Slots,
): string[] {
  if (!rule.check.schema || !rule.tests) return [];
  const slots = { ...packageSlots, ...(rule.tests.slots ?? {}) };
  const compiled = new RuleCompiler().compile(rule.id, rule, defs, slots);
  if (!compiled.ok) return [`${rule.id}: ${compiled.reason}`];
  const validate = compiled.validate;
  const failures: string[] = [];
  for (const example of rule.tests.valid ?? []) {
    if (!validate(example)) {
      failures.push(`${rule.id}: valid example failed: ${JSON.stringify(example)}`);
    }
  }
  for (const example of rule.tests.invalid ?? []) {
    if (validate(example)) {
      failures.push(`${rule.id}: invalid example passed: ${JSON.stringify(example)}`);
    }
  }
  return failures;
}
