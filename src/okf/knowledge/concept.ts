/**
 * What a knowledge index keeps of an OKF concept: its front matter fields
 * that policies and embedding inputs read, and its one-hop links. Front
 * matter is metadata here, never a passage.
 */
import { findLinks, resolveLink } from "../conformance/mod.ts";
import { parseYamlBlock, splitFrontMatter } from "../conformance/mod.ts";

/** A concept's metadata, as every passage of it carries it (`metadata.concept`). */
export interface ConceptMeta {
  /** Bundle-relative path. */
  path: string;
  type?: string;
  title: string;
  description?: string;
  status?: string;
  /** `stale_after`, a date or instant. */
  staleAfter?: string;
  tags?: string[];
  /** Bundle paths this concept links to (one hop); a folder link means its `index.md`. */
  links: string[];
  /** Relative links, as written, that climb out of the bundle: no context can follow them. */
  outsideLinks?: string[];
}

/** Files OKF reserves: navigation and history, not concepts. */
export function isReservedFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === "index.md" || name === "log.md";
}

const text = (value: unknown) =>
  typeof value === "string" && value.trim() ? value.trim() : undefined;

/** The first `# Title` of a body, if any. */
function firstHeading(body: string): string | undefined {
  return /^ {0,3}# +(.+?)[ \t#]*$/m.exec(body)?.[1];
}

/**
 * Reads a concept's metadata from its file. Unparseable front matter is
 * treated as absent (validate reports it); the body is still searchable.
 */
export function readConcept(path: string, content: string): ConceptMeta {
  const split = splitFrontMatter(content);
  const parsed = split.block === "present" ? parseYamlBlock(split) : null;
  const data = parsed?.ok ? parsed.frontMatter.data : {};
  const stem = path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
  const tags = Array.isArray(data.tags)
    ? data.tags.filter((t) => typeof t === "string")
    : undefined;
  const links = new Set<string>();
  const outside = new Set<string>();
  for (const link of findLinks(split.body, split.bodyLine)) {
    const target = resolveLink(link.target, path);
    if (target === null) outside.add(link.target);
    if (typeof target !== "string") continue;
    // A link to a folder (`/standard/`) means that folder's index.md.
    const folder = target === "" || /\/$/.test(link.target.replace(/[?#].*$/, ""));
    links.add(folder ? `${target}${target ? "/" : ""}index.md` : target);
  }
  links.delete(path);
  return {
    path,
    type: text(data.type),
    title: text(data.title) ?? firstHeading(split.body) ?? stem,
    description: text(data.description),
    status: text(data.status),
    staleAfter: text(data.stale_after) ??
      (data.stale_after instanceof Date ? data.stale_after.toISOString() : undefined),
    tags: tags?.length ? tags : undefined,
    links: [...links],
    ...(outside.size ? { outsideLinks: [...outside] } : {}),
  };
}

/** True when `root/index.md` declares `okf_version` in its front matter. */
export function declaresOkf(indexText: string): boolean {
  const split = splitFrontMatter(indexText);
  if (split.block !== "present") return false;
  const parsed = parseYamlBlock(split);
  return parsed.ok && parsed.frontMatter.data.okf_version !== undefined;
}
