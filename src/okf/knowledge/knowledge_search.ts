import type { SearchableIndex, Searcher, SearchHit, SearchRequest } from "../../search/mod.ts";
import { type ConceptMeta, isReservedFile } from "./concept.ts";
import {
  checkGoverning,
  conceptOf,
  eligibility,
  type KnowledgePolicy,
  lifecycleRule,
} from "./knowledge_policy.ts";

/** Why a passage is in a knowledge answer's context. */
export interface ContextEntry {
  /** Why the passage is in the context: it matched, it governs a match, or a match links to it. */
  reason: "match" | "governing" | "relationship";
  /** The concept's bundle path. */
  path: string;
  /** The matched concept that brought this one in (governing and relationship entries). */
  viaPath?: string;
  /** The passage. */
  passage: SearchHit;
}

/** Query-ranked matches, one per concept, and the policy-selected context around them. */
export interface KnowledgeAnswer {
  matches: SearchHit[];
  context: ContextEntry[];
  notices: string[];
}

/**
 * The search filter that keeps only passages the policy allows. A file of
 * the bundle that is no concept (notes.txt) has no type, status or expiry:
 * it passes `current` and a path scope, and fails a status or type filter.
 */
export function policyFilter(policy: KnowledgePolicy): (chunk: SearchHit["chunk"]) => boolean {
  const eligible = eligibility(policy);
  return (chunk) =>
    eligible(conceptOf(chunk) ?? { path: chunk.sourcePath, title: chunk.sourcePath, links: [] });
}

/** A concept of an index: its metadata and its first passage in the file. */
interface IndexedConcept {
  meta: ConceptMeta;
  first: SearchHit["chunk"];
}

/** The concepts of each index by path, read once: a search looks them up, never scans for them. */
const conceptsByIndex = new WeakMap<SearchableIndex, Map<string, IndexedConcept>>();

function conceptsOf(index: SearchableIndex): Map<string, IndexedConcept> {
  let concepts = conceptsByIndex.get(index);
  if (!concepts) {
    concepts = new Map();
    for (const chunk of index.chunks) {
      const meta = conceptOf(chunk);
      if (!meta) continue;
      const known = concepts.get(meta.path);
      if (!known || chunk.startOffset < known.first.startOffset) {
        concepts.set(meta.path, { meta, first: chunk });
      }
    }
    conceptsByIndex.set(index, concepts);
  }
  return concepts;
}

/** Hits with the first (best) passage of each concept, up to `limit`. */
function bestPerConcept(hits: SearchHit[], limit: number): SearchHit[] {
  const seen = new Set<string>();
  return hits.filter((h) => !seen.has(h.chunk.sourcePath) && seen.add(h.chunk.sourcePath))
    .slice(0, limit);
}

/** What a knowledge search can learn of the bundle's files besides its concepts. */
export interface BundleFiles {
  /** Bundle paths of the files the index holds. */
  indexed: ReadonlySet<string>;
  /** Whether a bundle path is a file or folder inside the bundle, indexed or not. */
  exists(path: string): Promise<boolean>;
}

/**
 * Searches a knowledge index under a policy: ranks passages the policy
 * allows, keeps the best passage per concept, then lays out context in
 * reading order — a match's governing source before it, its linked concepts
 * (with `expandLinks`, unless they are matches themselves) after it — with
 * notices for governing sources and linked concepts the policy excludes,
 * links that lead nowhere in the bundle, and concepts `current` drops that
 * rank above the first match. A chain of governing sources is laid out from
 * the top down.
 *
 * @param searcher The searcher to rank with; the policy is added to the request's filter.
 * @param files The bundle's files, when known: a link to a folder whose
 *   `index.md` is missing then gets a notice too, and one to a Markdown file
 *   the index leaves out (ignored, too large) says so.
 */
export async function searchKnowledge(
  searcher: Searcher,
  index: SearchableIndex,
  request: SearchRequest,
  policy: KnowledgePolicy,
  files?: BundleFiles,
): Promise<KnowledgeAnswer> {
  const concepts = conceptsOf(index);
  checkGoverning(policy.governing ?? {}, new Set(concepts.keys()), policy.origins?.governing);
  const filter = { ...request.filter, accept: policyFilter(policy) };
  let found = { matches: [] as SearchHit[], notices: [] as string[] };
  // One passage per concept: widen the pool until `limit` concepts are found or nothing is left.
  for (let pool = request.limit * 8;; pool *= 4) {
    const result = await searcher.search({ ...request, limit: pool, filter });
    found = { matches: bestPerConcept(result.matches, request.limit), notices: result.notices };
    const exhausted = result.matches.length < pool || pool >= index.chunks.length;
    if (found.matches.length >= request.limit || exhausted) break;
  }
  found.notices.push(...await droppedAbove(searcher, request, policy));
  const context = await contextAround(found.matches, {
    searcher,
    index,
    query: request.query,
    policy,
    concepts,
    files,
    notices: found.notices,
  });
  return { matches: found.matches, context, notices: found.notices };
}

/** How many concepts `current` dropped above the first match a search names, at most. */
const DROPPED_NAMED = 3;

/**
 * Notices naming the concepts `current` drops that rank above the first
 * match, and why: otherwise the answer hides that a better passage exists.
 * They are ranked under the rest of the policy (its scope, statuses, types).
 */
async function droppedAbove(
  searcher: Searcher,
  request: SearchRequest,
  policy: KnowledgePolicy,
): Promise<string[]> {
  if (!policy.current) return [];
  const dropped = lifecycleRule(policy);
  const accept = policyFilter({ ...policy, current: false });
  const ranked = await searcher.search({
    ...request,
    limit: DROPPED_NAMED * 8,
    filter: { ...request.filter, accept },
  });
  const notices: string[] = [];
  for (const hit of bestPerConcept(ranked.matches, ranked.matches.length)) {
    const concept = conceptOf(hit.chunk);
    const why = concept && dropped(concept);
    // The first passage `current` keeps is the first match: nothing below it was hidden.
    if (!why || notices.length === DROPPED_NAMED) break;
    notices.push(`${concept.path} matched better but ${why}`);
  }
  return notices;
}

/** What `contextAround` reads: the ranking, the bundle's concepts, and where notices go. */
interface Around {
  searcher: Searcher;
  index: SearchableIndex;
  query: string;
  policy: KnowledgePolicy;
  concepts: Map<string, IndexedConcept>;
  files?: BundleFiles;
  notices: string[];
}

/** The context entries of the matches, in reading order, each concept once. */
async function contextAround(matches: SearchHit[], a: Around): Promise<ContextEntry[]> {
  const passageOf = contextPassages(a);
  const matched = new Set(matches.map((m) => m.chunk.sourcePath));
  const context: ContextEntry[] = [];
  const add = (entry: ContextEntry) => {
    if (!context.some((e) => e.path === entry.path)) context.push(entry);
  };
  for (const match of matches) {
    const path = match.chunk.sourcePath;
    // The chain above the match (acyclic, checked), read from the top down.
    const chain: [upper: string, lower: string][] = [];
    for (let lower = path, upper; (upper = a.policy.governing?.[lower]) !== undefined;) {
      chain.unshift([upper, lower]);
      lower = upper;
    }
    for (const [upper, lower] of chain) {
      const passage = await passageOf(upper);
      if (passage) add({ reason: "governing", path: upper, viaPath: lower, passage });
      else a.notices.push(`governing source ${upper} of ${lower} is excluded by the policy`);
    }
    add({ reason: "match", path, passage: match });
    if (!a.policy.expandLinks) continue;
    for (const target of conceptOf(match.chunk)?.outsideLinks ?? []) {
      a.notices.push(`link from ${path} to ${target} leads out of the bundle`);
    }
    for (const target of conceptOf(match.chunk)?.links ?? []) {
      // A linked match keeps its own entry, with its governing sources, in its own place.
      if (matched.has(target)) continue;
      if (!a.concepts.has(target)) {
        const problem = await linkProblem(target, a.files);
        if (problem) a.notices.push(`link from ${path} to ${target} ${problem}`);
        continue;
      }
      const passage = await passageOf(target);
      if (passage) add({ reason: "relationship", path: target, viaPath: path, passage });
      else a.notices.push(`linked concept ${target} of ${path} is excluded by the policy`);
    }
  }
  return context;
}

/**
 * The passage a concept brings into context: its best for the query, else
 * its first (a lexical query may share no word with it). Undefined only
 * when the policy excludes the concept.
 */
function contextPassages(a: Around): (path: string) => Promise<SearchHit | undefined> {
  // The scope (paths, statuses, types) narrows what matches; context follows the matches
  // wherever it lives and whatever it is (a governing source is rarely of the same type).
  // The lifecycle still holds: an expired source governs nothing.
  const around = {
    ...a.policy,
    pathPrefixes: undefined,
    status: undefined,
    conceptTypes: undefined,
  };
  const eligible = eligibility(around);
  const accept = policyFilter(around);
  return async (path) => {
    const concept = a.concepts.get(path);
    if (!concept || !eligible(concept.meta)) return undefined;
    const ranked = await a.searcher.search({
      query: a.query,
      limit: 1,
      filter: { paths: [path], accept },
    });
    return ranked.matches[0] ?? { chunk: concept.first, score: 0, similarity: 0, scores: {} };
  };
}

/**
 * What is wrong with a link to a bundle path that is no concept of the
 * index, worded for a notice, or undefined when nothing is: it names a file
 * the index holds (navigation, notes) or a file that cannot be a concept (an
 * image, a schema). Without the file list, navigation links are trusted.
 */
async function linkProblem(target: string, files?: BundleFiles): Promise<string | undefined> {
  if (!files) {
    return isReservedFile(target) ? undefined : "does not resolve to a file of this bundle";
  }
  if (files.indexed.has(target)) return undefined;
  if (!await files.exists(target)) return "does not resolve to a file of this bundle";
  // Only a concept could be expanded: say why this one is not.
  const concept = /\.md$/i.test(target) && !isReservedFile(target);
  return concept ? "leads to a file the index leaves out" : undefined;
}
