import type { Chunk } from "../../types.ts";
import type { ConceptMeta } from "./concept.ts";
import type { ContextEntry } from "./knowledge_search.ts";

/** A date or instant as milliseconds; NaN when it is neither. */
const timeOf = (value: string) =>
  Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);

/**
 * What a reader of a knowledge passage must know of its concept, in one
 * line: its title, then its type and lifecycle (`status`, and `stale since`
 * once `stale_after` is before `asOf`), so a deprecated or stale page is
 * never read as a binding one. Undefined for a chunk that is no concept.
 *
 * @param asOf The date staleness is judged at (`YYYY-MM-DD` or an instant). @default now
 */
export function describeConcept(chunk: Chunk, asOf?: string): string | undefined {
  const concept = chunk.metadata.concept as ConceptMeta | undefined;
  if (!concept) return undefined;
  const at = asOf === undefined ? Date.now() : timeOf(asOf);
  const stale = concept.staleAfter !== undefined && timeOf(concept.staleAfter) < at;
  const facts = [
    concept.type,
    concept.status,
    stale ? `stale since ${concept.staleAfter}` : undefined,
  ].filter((fact) => fact !== undefined);
  return facts.length ? `${concept.title} (${facts.join(", ")})` : concept.title;
}

/**
 * A context entry's concept as {@link describeConcept} tells it, then why it
 * is there when not as a match: `governs X`, `linked from X`.
 */
export function describeEntry(entry: ContextEntry, asOf?: string): string | undefined {
  const via = entry.viaPath;
  const reason = entry.reason === "match" || via === undefined
    ? undefined
    : entry.reason === "governing"
    ? `governs ${via}`
    : `linked from ${via}`;
  const parts = [describeConcept(entry.passage.chunk, asOf), reason].filter((p) => p !== undefined);
  return parts.length ? parts.join("; ") : undefined;
}
