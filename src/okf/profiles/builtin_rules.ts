/**
 * Profile checks that are not a schema over one subject but a named
 * procedure: `matches-generated` (every index equals the generator's),
 * `files-present` (required root files) and `path-targets-exist` (path
 * resources resolve).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { classifyTarget } from "./classify_target.ts";
import { bundleIndexOf } from "./concept_facts.ts";
import { type GeneratedIndex, generateIndexes } from "../conformance/mod.ts";
import type { LoadedBundle } from "../conformance/mod.ts";
import type { Position } from "../conformance/mod.ts";
import type { RuleCheck } from "./profile_package.ts";

/** One failure of a builtin: where, which message variant, and the template values. */
export interface BuiltinFailure {
  path: string;
  at: Position;
  variant?: string;
  vars: Record<string, unknown>;
}

/** Why a builtin cannot be evaluated as its rule asks: it would check something else. */
export interface Unsupported {
  unsupported: string;
}

type Builtin = (
  bundle: LoadedBundle,
  params: Record<string, unknown>,
) => BuiltinFailure[] | Unsupported;

const START = { line: 1, column: 1 };

/** Index generators `matches-generated` compares against, by the name its `generator` param gives. */
const GENERATORS: Record<string, (bundle: LoadedBundle) => GeneratedIndex[]> = {
  "okf-index": generateIndexes,
};

const BUILTINS: Record<string, Builtin> = {
  "matches-generated"(bundle, params) {
    const name = params.generator ?? "okf-index";
    const generate = typeof name === "string" && Object.hasOwn(GENERATORS, name)
      ? GENERATORS[name]!
      : null;
    if (!generate) {
      const [wanted, known] = [JSON.stringify(name), Object.keys(GENERATORS).join(", ")];
      return { unsupported: `its generator ${wanted} is unknown (this wayfinder has ${known})` };
    }
    const keep = Array.isArray(params.keep) ? params.keep.map(String) : [];
    const generated = new Map(generate(bundle).map((g) => [g.path, g.content]));
    const failures: BuiltinFailure[] = [];
    const files = new Set(bundle.files);
    for (const [path, content] of generated) {
      if (!files.has(path) || readFileSync(join(bundle.root, path), "utf8") !== content) {
        failures.push({ path, at: START, variant: "stale", vars: { path } });
      }
    }
    for (const path of bundle.files) {
      if (
        (path === "index.md" || path.endsWith("/index.md")) && !generated.has(path) &&
        !keep.includes(path)
      ) {
        failures.push({ path, at: START, variant: "extra", vars: { path } });
      }
    }
    return failures;
  },
  "files-present"(bundle, params) {
    const paths = Array.isArray(params.paths) ? params.paths.map(String) : [];
    const missing = paths.filter((p) => !bundle.files.includes(p));
    return missing.length
      ? [{ path: missing[0]!, at: START, vars: { failing: missing.join(", ") } }]
      : [];
  },
  "path-targets-exist"(bundle) {
    const index = bundleIndexOf(bundle);
    const failures: BuiltinFailure[] = [];
    for (const doc of bundle.documents) {
      if (doc.kind !== "concept" || !doc.frontMatter) continue;
      const data = doc.frontMatter.data;
      const sources = Array.isArray(data.sources) ? data.sources : [];
      const targets: [unknown, string][] = [
        [data.resource, "resource"],
        ...sources.map((s): [unknown, string] => [s?.resource, "sources"]),
      ];
      for (const [target, key] of targets) {
        if (typeof target !== "string") continue;
        if (classifyTarget(target, doc.path, index).resolution !== "unresolved") continue;
        const at = doc.frontMatter.keys.get(key) ?? START;
        failures.push({ path: doc.path, at, vars: { target, path: doc.path } });
      }
    }
    return failures;
  },
};

/** Runs a builtin check, or says why this wayfinder cannot (an unknown builtin or generator). */
export function runBuiltin(check: RuleCheck, bundle: LoadedBundle): BuiltinFailure[] | Unsupported {
  const name = check.builtin ?? "";
  if (!Object.hasOwn(BUILTINS, name)) {
    return { unsupported: `its builtin '${name}' is unknown to this wayfinder` };
  }
  return BUILTINS[name]!(bundle, check.params ?? {});
}
