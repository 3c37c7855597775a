/**
 * wayfinder as a library: open a source tree, index it, search it; validate
 * an OKF knowledge bundle and get the Profiles bound to it.
 *
 * @example Index a folder and search it
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeEmbedder, openCorpus } from "./mod.ts";
 *
 * const dataDir = await Deno.makeTempDir();
 * // A real model is the default; the fake embedder keeps the example fast.
 * const corpus = await openCorpus("fixtures/corpus", { dataDir, embedder: new FakeEmbedder() });
 * await corpus.index();
 * const { matches } = await corpus.search("encrypt sensitive data", { limit: 3, mode: "hybrid" });
 * assert.equal(matches.length, 3);
 * await corpus.close();
 * await Deno.remove(dataDir, { recursive: true });
 * ```
 * @module
 */
import {
  getProfiles as getOkfProfiles,
  validateBundle as validateOkfBundle,
  type ValidationReport,
} from "./okf/mod.ts";

export { openCorpus } from "./corpus/mod.ts";
export type {
  Corpus,
  CorpusIndexOptions,
  CorpusOptions,
  CorpusSearchOptions,
  CorpusSearchResult,
  CorpusStatus,
  EmbedderSettings,
} from "./corpus/mod.ts";
export type { IndexSummary } from "./pipeline/mod.ts";
export {
  type PassageScorer,
  rerankingSearcher,
  type Searcher,
  type SearchFilter,
  type SearchHit,
  type SearchRequest,
  type SearchResult,
} from "./search/mod.ts";
export type { Chunk } from "./types.ts";
export { type Embedder, FakeEmbedder } from "./embed/mod.ts";
export type { Finding, ValidationReport } from "./okf/mod.ts";
export { type ErrorCode, type Fix, WayfinderError } from "./error.ts";

/**
 * Validates the OKF 0.2 bundle at `dir`: front matter and `type` of every
 * concept, the structure of index and log files, the shape of optional
 * fields (advisories) and internal links (notes). Never writes.
 *
 * @param dir The bundle root directory.
 * @returns The findings, sorted, with counts and the gate.
 * @throws {WayfinderError} `io` when `dir` does not exist; `usage` when it is a file.
 * @example Validate a bundle
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateBundle } from "./mod.ts";
 *
 * const report = await validateBundle("fixtures/okf/valid");
 * assert.equal(report.gate, "PASS");
 * assert.deepEqual(report.findings.filter((f) => f.severity === "error"), []);
 * ```
 */
export function validateBundle(dir: string): Promise<ValidationReport> {
  return validateOkfBundle(dir);
}

/**
 * What {@link getProfiles} did.
 *
 * @example Report what a run did
 * ```ts
 * import assert from "node:assert/strict";
 * import type { GetResult } from "./mod.ts";
 *
 * function describe(result: GetResult): string {
 *   const fetched = result.fetched.length ? `fetched ${result.fetched.join(", ")}` : "all cached";
 *   return `${result.lockWritten ? "wrote" : "kept"} ${result.lockFile}; ${fetched}`;
 * }
 * const result: GetResult = {
 *   lockFile: "wayfinder.lock",
 *   lockWritten: false,
 *   lockRemoved: false,
 *   fetched: [],
 *   installed: [],
 *   removed: [],
 *   unknownKeys: [],
 * };
 * assert.equal(describe(result), "kept wayfinder.lock; all cached");
 * ```
 */
export interface GetResult {
  /** The wayfinder.lock beside wayfinder.json. */
  lockFile: string;
  /** False when the lock already held exactly this content. */
  lockWritten: boolean;
  /** True when no Profile is bound any more and get removed the lock an earlier run wrote. */
  lockRemoved: boolean;
  /** Sources git fetched from during this run (empty when everything was cached). */
  fetched: string[];
  /** Skill folders written. */
  installed: string[];
  /** Skill folders `get` had installed whose package no longer ships a skill, removed. */
  removed: string[];
  /** Top-level keys of wayfinder.json that nothing defines. */
  unknownKeys: string[];
  /** Why the lock that was there could not be read, when get replaced it. */
  replacedLock?: string;
}

/**
 * Resolves the Profiles a project's wayfinder.json binds, pins them in
 * wayfinder.lock, caches their packages under `<dataRoot>/profiles` and
 * installs their skills. With nothing bound it removes a lock it wrote.
 *
 * @param options The project's wayfinder.json (`configFile`), the data root
 *   the cache lives under (`<dataRoot>/profiles`), and whether to re-resolve
 *   every ref even when the lock is current (`update`, default false).
 * @returns What was fetched, written and installed.
 * @throws {WayfinderError} `config` for a malformed binding, lock or package; `io` when git fails.
 * @example A wayfinder.json that binds no Profile is refused
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { getProfiles, WayfinderError } from "./mod.ts";
 *
 * const project = await Deno.makeTempDir();
 * const configFile = join(project, "wayfinder.json");
 * await Deno.writeTextFile(configFile, "{}");
 * await assert.rejects(
 *   getProfiles({ configFile, dataRoot: join(project, "data") }),
 *   (error) => error instanceof WayfinderError && error.code === "config",
 * );
 * await Deno.remove(project, { recursive: true });
 * ```
 */
export function getProfiles(
  options: { configFile: string; dataRoot: string; update?: boolean },
): Promise<GetResult> {
  return getOkfProfiles(options);
}
