/**
 * The facts a Profile rule's JSON Schema is evaluated against, per subject:
 * `frontmatter` (the front matter as parsed), `concept` (derived facts and
 * lists that `each` rules iterate), `actor`, `file`, `directory`, `root`
 * and `log`. Each fact list item may carry a position for the finding.
 */
import { bodyLines } from "../conformance/mod.ts";
import { type BundleIndex, classifyTarget } from "./classify_target.ts";
import { findLinks } from "../conformance/mod.ts";
import type { BundleDocument, LoadedBundle } from "../conformance/mod.ts";
import type { Position } from "../conformance/mod.ts";

/** An item of a fact list, with where it was found. */
export interface Located {
  facts: Record<string, unknown>;
  at: Position;
}

/** The lists of a concept an `each` rule may iterate. */
export const CONCEPT_LISTS = ["tags", "keys", "relationships", "footnotes", "edges"] as const;

/** The name of a concept's fact list. */
export type ConceptList = typeof CONCEPT_LISTS[number];

/** A concept's facts: scalar facts plus the lists `each` rules iterate. */
export interface ConceptFacts {
  doc: BundleDocument;
  facts: Record<string, unknown>;
  lists: Record<ConceptList, Located[]>;
  /** Where a derived fact is best pointed at, when it is not a front matter key of its own. */
  positions: Record<string, Position>;
}

/** The bundle's targets index: what exists, and which paths are concepts. */
export function bundleIndexOf(bundle: LoadedBundle): BundleIndex {
  return {
    existing: new Set([...bundle.files, ...bundle.dirs]),
    dirs: new Set(bundle.dirs),
    concepts: new Set(bundle.documents.filter((d) => d.kind === "concept").map((d) => d.path)),
  };
}

/** Facts of one concept whose front matter parsed. */
export function conceptFacts(doc: BundleDocument, index: BundleIndex): ConceptFacts {
  const data = doc.frontMatter!.data;
  const keyAt = (key: string) => doc.frontMatter!.keys.get(key) ?? { line: 1, column: 1 };
  const sources = Array.isArray(data.sources) ? data.sources : [];
  const sourceIds = sources.filter((s) => isObject(s) && s.id !== undefined).map((s) =>
    String(s.id)
  );
  const positions: Record<string, Position> = {};
  const repeated = repeatedSourceId(doc);
  if (repeated) positions.source_ids = repeated;
  const lists: Record<ConceptList, Located[]> = {
    tags: tagItems(data.tags, keyAt("tags")),
    keys: [...doc.frontMatter!.keys].map(([key, at]) => ({ facts: { value: key }, at })),
    relationships: relationshipItems(data.relationships, doc.path, index, keyAt("relationships")),
    footnotes: footnoteItems(doc, new Set(sourceIds)),
    edges: edgeItems(doc, sources, index, keyAt),
  };
  const dir = doc.path.replace(/\.md$/, "");
  const facts = {
    path: doc.path,
    type: typeof data.type === "string" ? data.type : null,
    title: data.title ?? null,
    source_ids: sourceIds,
    sibling_directory: index.dirs.has(dir),
  };
  return { doc, facts, lists, positions };
}

/** Where the first `sources[].id` that repeats an earlier one is written. */
function repeatedSourceId(doc: BundleDocument): Position | null {
  const { data, items } = doc.frontMatter!;
  if (!Array.isArray(data.sources)) return null;
  const seen = new Set<string>();
  for (const [i, source] of data.sources.entries()) {
    if (!isObject(source) || source.id === undefined) continue;
    const id = String(source.id);
    if (seen.has(id)) {
      const item = items.get("sources")?.[i];
      return item?.keys.get("id") ?? item?.at ?? null;
    }
    seen.add(id);
  }
  return null;
}

function tagItems(tags: unknown, at: Position): Located[] {
  if (!Array.isArray(tags)) return [];
  const counts = new Map<unknown, number>();
  for (const t of tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].map(([value, count]) => ({ facts: { value, count }, at }));
}

function relationshipItems(
  value: unknown,
  from: string,
  index: BundleIndex,
  at: Position,
): Located[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [{ facts: { value }, at }];
  return value.map((entry) => {
    if (!isObject(entry) || typeof entry.resource !== "string") return { facts: { entry }, at };
    const t = classifyTarget(entry.resource, from, index);
    const resolved = t.resolution === "resolved-concept" || t.resolution === "resolved-asset";
    return {
      facts: {
        entry,
        resolution: t.resolution,
        internal: t.internal,
        bundle_relative: t.bundle_relative,
        resolved,
      },
      at,
    };
  });
}

const FOOTNOTE_REF = /\[\^([^\]\s]+)\](?!:)/g;
const FOOTNOTE_DEF = /^ {0,3}\[\^([^\]\s]+)\]:/;

function footnoteItems(doc: BundleDocument, sourceIds: Set<string>): Located[] {
  const defined = new Set<string>();
  const refs: Located[] = [];
  for (const l of bodyLines(doc.body, doc.bodyLine)) {
    if (l.inFence) continue;
    const def = FOOTNOTE_DEF.exec(l.text);
    if (def) defined.add(def[1]!);
    const text = def ? l.text.slice(def[0].length) : l.text;
    const offset = def ? def[0].length : 0;
    for (const m of text.matchAll(FOOTNOTE_REF)) {
      refs.push({ facts: { value: m[1]! }, at: { line: l.line, column: offset + m.index! + 1 } });
    }
  }
  for (const r of refs) {
    r.facts.defined = defined.has(r.facts.value as string);
    r.facts.is_source_id = sourceIds.has(r.facts.value as string);
  }
  return refs;
}

function edgeItems(
  doc: BundleDocument,
  sources: unknown[],
  index: BundleIndex,
  keyAt: (key: string) => Position,
): Located[] {
  const edges: Located[] = findLinks(doc.body, doc.bodyLine)
    .filter((l) => !l.target.startsWith("#"))
    .map((l) => ({
      facts: { origin: "body", ...classifyTarget(l.target, doc.path, index) },
      at: { line: l.line, column: l.column },
    }));
  const resource = doc.frontMatter!.data.resource;
  if (typeof resource === "string") {
    edges.push({
      facts: { origin: "resource", ...classifyTarget(resource, doc.path, index) },
      at: keyAt("resource"),
    });
  }
  for (const s of sources) {
    if (isObject(s) && typeof s.resource === "string") {
      const facts = { origin: "sources.resource", ...classifyTarget(s.resource, doc.path, index) };
      edges.push({ facts, at: keyAt("sources") });
    }
  }
  return edges;
}

/** Every actor the bundle uses, with the first concept that uses it. */
export function actorItems(concepts: ConceptFacts[]): Located[] {
  const seen = new Map<string, Located>();
  for (const { doc } of concepts) {
    const data = doc.frontMatter!.data;
    const verified = Array.isArray(data.verified) ? data.verified : [data.verified];
    const uses: [unknown, string][] = [
      [isObject(data.generated) ? data.generated.by : undefined, "generated"],
      ...verified.map((v): [unknown, string] => [isObject(v) ? v.by : undefined, "verified"]),
      ...(Array.isArray(data.sources) ? data.sources : []).map((s): [unknown, string] => [
        isObject(s) ? s.author : undefined,
        "sources",
      ]),
    ];
    for (const [id, key] of uses) {
      if (typeof id !== "string" || seen.has(id)) continue;
      const at = doc.frontMatter!.keys.get(key) ?? { line: 1, column: 1 };
      seen.set(id, { facts: { id, first_use: doc.path }, at });
    }
  }
  return [...seen.values()];
}

/** Facts of the bundle root: its okf_version, root files, whether it has concepts, and the root index's links. */
export function rootFacts(bundle: LoadedBundle): Record<string, unknown> {
  const index = bundle.documents.find((d) => d.path === "index.md");
  return {
    okf_version: index?.frontMatter?.data.okf_version ?? null,
    files: bundle.files.filter((f) => !f.includes("/")),
    has_concepts: bundle.documents.some((d) => d.kind === "concept"),
    index_links: index ? findLinks(index.body, index.bodyLine).map((l) => l.target) : null,
  };
}

/** Facts of the root log: each entry's date and bold lead word ("" when it has none). */
export function logFacts(bundle: LoadedBundle): Record<string, unknown> | null {
  const log = bundle.documents.find((d) => d.path === "log.md");
  if (!log) return null;
  const entries: { date: string; action: string }[] = [];
  let date = "";
  for (const l of bodyLines(log.body, log.bodyLine)) {
    const heading = /^##[ \t]+(\S.*?)[ \t]*$/.exec(l.text);
    if (heading) date = heading[1]!;
    else if (!l.inFence && date && /^[*+-][ \t]+/.test(l.text)) {
      const lead = /^[*+-][ \t]+\*\*([^*]*)\*\*:/.exec(l.text);
      entries.push({ date, action: lead ? lead[1]!.trim() : "" });
    }
  }
  return { entries };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
