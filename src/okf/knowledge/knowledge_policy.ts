import { WayfinderError } from "../../error.ts";
import type { Chunk } from "../../types.ts";
import type { ConceptMeta } from "./concept.ts";

/**
 * Which concepts a knowledge search may return and what context it adds.
 * These are the caller's choices, not OKF rules: nothing is filtered unless asked.
 */
export interface KnowledgePolicy {
  /**
   * Drop concepts whose `stale_after` is before `asOf`, and `status: deprecated`
   * ones — except, with an explicit `asOf`, those whose `stale_after` had not
   * passed then: they were still in force. Drafts and unverified concepts stay.
   */
  current?: boolean;
  /** The date `current` judges at (`YYYY-MM-DD` or an ISO instant); only with `current`. @default today */
  asOf?: string;
  /** Only concepts with one of these statuses. */
  status?: string[];
  /** Only concepts of one of these types. */
  conceptTypes?: string[];
  /** Only concepts under one of these bundle paths. */
  pathPrefixes?: string[];
  /** Lower concept path → the concept that governs it; shown as context before the lower one. */
  governing?: Record<string, string>;
  /** Add each match's linked concepts (one hop) as context. */
  expandLinks?: boolean;
  /**
   * Where the caller took `asOf` and `governing` from, as messages about a bad
   * value name it (`--as-of`, `wayfinder.json 'knowledge.asOf'`). @default their names here
   */
  origins?: PolicyOrigins;
}

/** How messages name the policy values a caller gave. */
export interface PolicyOrigins {
  /** Where `asOf` came from. */
  asOf?: string;
  /** Where `governing` came from. */
  governing?: string;
}

/** Whether a value's origin is wayfinder.json (a setting), not a flag or an argument. */
function fromConfigFile(origin: string | undefined): boolean {
  return origin?.startsWith("wayfinder.json") ?? false;
}

/** A bad policy value, named by its origin; one from wayfinder.json is a config error. */
function invalid(origin: string, value: string | undefined, why: string): WayfinderError {
  const code = fromConfigFile(origin) ? "config" : "usage";
  const what = value === undefined ? origin : `value ${JSON.stringify(value)} for ${origin}`;
  return new WayfinderError(code, `Invalid ${what}: ${why}`);
}

/** Whether a policy asks for anything: a search of a plain tree cannot honour one that does. */
export function asksAnything(policy: KnowledgePolicy): boolean {
  const { origins: _names, ...asked } = policy;
  return Object.values(asked).some((value) =>
    value !== undefined && value !== false &&
    !(Array.isArray(value) && value.length === 0) &&
    !(typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0)
  );
}

/** The concept a passage belongs to, if it is a knowledge passage. */
export function conceptOf(chunk: Chunk): ConceptMeta | undefined {
  return chunk.metadata.concept as ConceptMeta | undefined;
}

/** Milliseconds of a date or instant; NaN when it is neither, or a day the calendar lacks. */
function timeOf(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return Date.parse(value);
  const time = Date.parse(`${value}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over to 2 March; a real day prints back as itself.
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value) ? time : NaN;
}

/**
 * Refuses an `asOf` asked without `current`, which would be silently
 * ignored: the one rule for flags, MCP arguments and library callers. A date
 * from wayfinder.json is only the default a later `current` judges at.
 * @throws {WayfinderError} "usage" naming the date's origin (`--as-of applies only with --current`).
 */
export function checkQualifiers(policy: KnowledgePolicy): void {
  const origin = policy.origins?.asOf;
  if (policy.asOf === undefined || policy.current || fromConfigFile(origin)) return;
  // A flag is answered in flags, an argument in arguments.
  const current = origin?.startsWith("--") ? "--current" : "current";
  throw new WayfinderError("usage", `${origin ?? "asOf"} applies only with ${current}`);
}

/**
 * Compiles the lifecycle rule of `current` into why it drops a concept
 * ("is past stale_after 2024-12-31", "is deprecated"), undefined when it
 * keeps it. A concept is stale once `asOf` is past its `stale_after`; with
 * an explicit `asOf`, a deprecated concept not yet stale then was still in
 * force (the usual record of a replaced policy), so it is kept.
 * @throws {WayfinderError} "usage" for an `asOf` that is not a date.
 */
export function lifecycleRule(
  policy: KnowledgePolicy,
): (concept: ConceptMeta) => string | undefined {
  // A date or a full instant with its offset; Date.parse alone would take 2026-1-5.
  const exact = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
  const asOf = policy.asOf ? exact.test(policy.asOf) ? timeOf(policy.asOf) : NaN : Date.now();
  if (Number.isNaN(asOf)) {
    const why = "expected YYYY-MM-DD or an instant with its offset";
    throw invalid(policy.origins?.asOf ?? "asOf", policy.asOf, why);
  }
  return (c) => {
    // An unreadable stale_after (NaN) never expires a concept.
    const staleAfter = c.staleAfter ? timeOf(c.staleAfter) : NaN;
    if (staleAfter < asOf) return `is past stale_after ${c.staleAfter}`;
    if (c.status !== "deprecated") return undefined;
    return policy.asOf !== undefined && staleAfter >= asOf ? undefined : "is deprecated";
  };
}

/**
 * Compiles the policy's eligibility rules into a predicate over concepts.
 * @throws {WayfinderError} "usage" for an `asOf` that is not a date.
 */
export function eligibility(policy: KnowledgePolicy): (concept: ConceptMeta) => boolean {
  const dropped = lifecycleRule(policy);
  const statuses = policy.status?.length ? new Set(policy.status) : null;
  const types = policy.conceptTypes?.length ? new Set(policy.conceptTypes) : null;
  const prefixes = policy.pathPrefixes?.length
    ? policy.pathPrefixes.map((p) => p.replace(/^\.?\//, ""))
    : null;
  return (c) =>
    !(policy.current && dropped(c)) &&
    (!statuses || statuses.has(c.status ?? "")) &&
    (!types || types.has(c.type ?? "")) &&
    (!prefixes ||
      prefixes.some((p) => c.path === p || c.path.startsWith(p.replace(/\/?$/, "/"))));
}

/**
 * Checks the governing map against the bundle: every path must be a
 * concept, and following "governed by" must never come back to the start.
 * @param origin How messages name the map (`--governing`). @default "governing"
 * @throws {WayfinderError} "usage" ("config" from wayfinder.json) naming the unknown path or the cycle.
 */
export function checkGoverning(
  governing: Record<string, string>,
  concepts: Set<string>,
  origin = "governing",
): void {
  for (const [lower, upper] of Object.entries(governing)) {
    for (const path of [lower, upper]) {
      if (!concepts.has(path)) {
        throw invalid(origin, `${lower}=${upper}`, `'${path}' is not a concept of this bundle`);
      }
    }
  }
  for (const start of Object.keys(governing)) {
    const seen = [start];
    for (let at = governing[start]; at !== undefined; at = governing[at]) {
      if (seen.includes(at)) {
        throw invalid(origin, undefined, `${[...seen, at].join(" → ")} is a cycle`);
      }
      seen.push(at);
    }
  }
}

/**
 * `lower.md=governing.md` pairs, as flags and wayfinder.json write them, as a map.
 * @param origin How messages name the pairs (`--governing`). @default "governing"
 */
export function parseGoverning(pairs: string[], origin = "governing"): Record<string, string> {
  // No prototype: a path such as `constructor` is no inherited key.
  const map: Record<string, string> = Object.create(null);
  for (const pair of pairs) {
    const [lower, upper, extra] = pair.split("=").map((p) => p.trim().replace(/^\.?\//, ""));
    if (!lower || !upper || extra !== undefined) {
      throw invalid(origin, pair, "expected lower.md=governing.md");
    }
    if (map[lower] !== undefined && map[lower] !== upper) {
      throw invalid(origin, pair, `${lower} is already governed by ${map[lower]}`);
    }
    map[lower] = upper;
  }
  return map;
}
