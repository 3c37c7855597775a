/**
 * validate with the project around the bundle: OKF conformance, then the
 * rules of every Profile wayfinder.json binds to this bundle, read from the
 * lock and cache. A bound Profile that cannot be applied makes the gate
 * INCOMPLETE rather than PASS, and so does one whose `applies_to` names a
 * folder that does not exist.
 */
import { realpathSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { applyProfile, chainRuleInfo } from "./apply_profile.ts";
import type { Finding, RuleInfo } from "../conformance/mod.ts";
import { loadBundle, type LoadedBundle } from "../conformance/mod.ts";
import { lockedChain } from "./locked_chain.ts";
import { type Binding, type BoundProfile, readBinding } from "./read_binding.ts";
import { okfFindings, reportOf, type ValidationReport } from "../conformance/mod.ts";
import { wayfinderFinding, type WayfinderRuleId } from "../conformance/mod.ts";

/** Options for {@link validateProject}. */
export interface ProjectOptions {
  /** The wayfinder.json governing the bundle, if any. */
  configFile: string | null;
  /** Data root holding the Profile cache. */
  dataRoot: string;
  /** Filled with the description of every applied Profile rule, by finding id (for SARIF). */
  rules?: Map<string, RuleInfo>;
}

/** How each bound Profile fared. */
export interface ProfileStatus {
  name: string;
  /** `unbound`: its `applies_to` names a folder that does not exist. */
  status: "applied" | "unresolved" | "unbound";
  /** Package ids and releases, the bound package first (applied only). */
  packages?: { id: string; release: string }[];
  commit?: string;
  reason?: string;
}

/**
 * Validates the bundle at `dir` against OKF 0.2 and its bound Profiles.
 * Reads only the bundle, wayfinder.json, wayfinder.lock and the cache.
 *
 * @param dir The bundle root directory.
 * @param options Where the binding and the cache are.
 * @returns The report; `profiles` says which Profiles were applied.
 * @throws {WayfinderError} `io`/`usage` for a bad bundle path; `config` for a malformed binding or lock.
 * @example Validate a project without a binding
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateProject } from "./mod.ts";
 * const report = await validateProject("fixtures/okf/valid", { configFile: null, dataRoot: "/tmp" });
 * assert.equal(report.gate, "PASS");
 * ```
 */
export function validateProject(
  dir: string,
  options: ProjectOptions,
): Promise<ValidationReport & { profiles: ProfileStatus[] }> {
  const bundle = loadBundle(dir);
  const findings = [...bundle.findings, ...okfFindings(bundle)];
  const profiles: ProfileStatus[] = [];
  let incomplete = false;
  if (options.configFile) {
    const binding = readBinding(options.configFile);
    const bindingPath = relative(bundle.root, binding.file).split("\\").join("/");
    const at = (id: WayfinderRuleId, message: string, needle: string) =>
      findings.push(wayfinderFinding(id, message, bindingPath, binding.text, needle));
    for (const key of binding.unknownKeys) {
      const message =
        `Unknown top-level key '${key}': wayfinder.json holds the Profile binding and wayfinder's settings only`;
      at("wayfinder/config-unknown-key", message, JSON.stringify(key));
    }
    const bound = boundTo(binding, bundle);
    for (const profile of bound) {
      const outcome = applyBound(bundle, binding, profile, bindingPath, options, findings);
      profiles.push(outcome);
      if (outcome.status !== "applied" || outcome.reason) incomplete = true;
    }
    for (const status of unboundProfiles(binding, bound, at)) {
      profiles.push(status);
      incomplete = true;
    }
    if (binding.profiles.length > 0 && bound.length === 0) {
      at("wayfinder/bundle-unbound", noProfileHere(binding), '"profiles"');
    }
  }
  return Promise.resolve({ ...reportOf(bundle, findings, incomplete), profiles });
}

/** The Profiles whose `applies_to` names this bundle. */
function boundTo(binding: Binding, bundle: LoadedBundle) {
  const root = realPath(bundle.root);
  return binding.profiles.filter((p) => p.appliesTo.some((dir) => realPath(dir) === root));
}

/**
 * Profiles not applied here whose `applies_to` names a folder that does not
 * exist: most likely a typo for this bundle, so the gate must not PASS.
 */
function unboundProfiles(
  binding: Binding,
  bound: BoundProfile[],
  at: (id: WayfinderRuleId, message: string, needle: string) => void,
): ProfileStatus[] {
  const statuses: ProfileStatus[] = [];
  for (const profile of binding.profiles) {
    for (const folder of profile.missingFolders) {
      const message =
        `Profile '${profile.name}' applies_to '${folder}', which is not a folder: its rules were applied to no bundle there`;
      at("wayfinder/profile-unbound", message, JSON.stringify(folder));
    }
    if (profile.missingFolders.length > 0 && !bound.includes(profile)) {
      const reason = `applies_to names no existing folder: ${profile.missingFolders.join(", ")}`;
      statuses.push({ name: profile.name, status: "unbound", reason });
    }
  }
  return statuses;
}

/** Why no Profile governs this bundle: where each bound Profile applies instead. */
function noProfileHere(binding: Binding): string {
  const project = dirname(binding.file);
  const where = binding.profiles.map((p) =>
    `'${p.name}' to ${p.appliesTo.map((d) => relative(project, d) || ".").join(", ")}`
  );
  return `No bound Profile applies to this bundle: wayfinder.json binds ${where.join("; ")}`;
}

function applyBound(
  bundle: LoadedBundle,
  binding: Binding,
  bound: BoundProfile,
  bindingPath: string,
  options: ProjectOptions,
  findings: Finding[],
): ProfileStatus {
  const name = bound.name;
  const locked = lockedChain(binding, bound, options.dataRoot);
  if (!locked.ok) {
    findings.push(
      wayfinderFinding(
        "wayfinder/profile-unresolved",
        locked.reason,
        bindingPath,
        binding.text,
        JSON.stringify(name),
      ),
    );
    return { name, status: "unresolved", reason: locked.reason };
  }
  const outcome = applyProfile(bundle, locked.chain);
  for (const [id, info] of chainRuleInfo(locked.chain)) options.rules?.set(id, info);
  for (const f of outcome.findings) findings.push(f);
  for (const { id, reason } of outcome.unsupported) {
    const message = `Rule ${id} cannot be evaluated: ${reason}; it was not applied`;
    findings.push(wayfinderFinding("wayfinder/rule-unsupported", message, bindingPath));
  }
  const defined = new Set(locked.chain.packages.flatMap((p) => p.types.map((t) => t.name)));
  for (const type of bound.types) {
    if (defined.has(type.name)) continue;
    const message =
      `Project type '${type.name}' is declared in wayfinder.json; no Profile in the chain defines it`;
    findings.push(
      wayfinderFinding(
        "wayfinder/project-type",
        message,
        bindingPath,
        binding.text,
        JSON.stringify(type.name),
      ),
    );
  }
  return {
    name,
    status: "applied",
    packages: locked.chain.packages.map((p) => ({ id: p.id, release: p.release })),
    commit: locked.commit,
    ...(outcome.unsupported.length ? { reason: "some rules could not be evaluated" } : {}),
  };
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
