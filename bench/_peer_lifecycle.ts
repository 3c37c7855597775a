/**
 * The peer's "current except history" lifecycle rule, expressed as an
 * allow-list of paths for our path filter: a concept is current unless its
 * front matter says `status: deprecated` or its `stale_after` date is before
 * the fixture's `asOf`; history questions may see everything.
 */
import { parse as parseYaml } from "yaml";

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/;

/** Front matter fields of a Markdown text, or {} when it has none. */
export function frontMatter(text: string): Record<string, unknown> {
  const match = text.replace(/\r\n?/g, "\n").match(FRONT_MATTER);
  if (!match) return {};
  const data = parseYaml(match[1]);
  return data && typeof data === "object" ? data as Record<string, unknown> : {};
}

/** True when a concept counts as current guidance on `asOf` (YYYY-MM-DD). */
export function isCurrent(fields: Record<string, unknown>, asOf: string): boolean {
  if (String(fields.status ?? "stable") === "deprecated") return false;
  const stale = fields.stale_after;
  // YAML may give a Date for an unquoted date; compare as YYYY-MM-DD either way.
  const day = stale instanceof Date ? stale.toISOString().slice(0, 10) : stale ? String(stale) : "";
  return day === "" || day >= asOf;
}

/** Paths of the current concepts among `{path: text}`. */
export function currentPaths(files: Record<string, string>, asOf: string): string[] {
  return Object.entries(files).filter(([, text]) => isCurrent(frontMatter(text), asOf)).map(
    ([path]) => path,
  );
}
