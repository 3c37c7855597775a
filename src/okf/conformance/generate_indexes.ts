/**
 * The `index.md` files OKF's reference generator writes (§8): per directory,
 * one `# <type>` section per concept type and a `# Subdirectories` section,
 * sections sorted by name and entries by title, each entry
 * `* [Title](link) - description`. A directory is indexed when it holds a
 * concept at any depth. A subdirectory's description is its only entry's
 * description, else "Contains N entries: <titles>.". The root index keeps
 * its front matter block (`okf_version`) as written.
 */
import type { BundleDocument, LoadedBundle } from "./load_bundle.ts";

/** One generated index file. */
export interface GeneratedIndex {
  /** Bundle-relative posix path of the index.md. */
  path: string;
  content: string;
}

interface Entry {
  section: string;
  title: string;
  link: string;
  description: string;
}

const SUBDIRECTORIES = "Subdirectories";

/** Every index.md the generator would write for `bundle`, deepest directory first. */
export function generateIndexes(bundle: LoadedBundle): GeneratedIndex[] {
  const conceptsByDir = new Map<string, BundleDocument[]>();
  for (const doc of bundle.documents) {
    if (doc.kind !== "concept" || !doc.frontMatter) continue;
    const dir = dirOf(doc.path);
    conceptsByDir.set(dir, [...(conceptsByDir.get(dir) ?? []), doc]);
  }
  const childDirs = new Map<string, string[]>();
  for (const child of bundle.dirs) {
    if (child !== "") childDirs.set(dirOf(child), [...(childDirs.get(dirOf(child)) ?? []), child]);
  }
  const dirs = [...bundle.dirs].sort((a, b) => depth(b) - depth(a) || (a < b ? -1 : 1));
  const described = new Map<string, string>();
  const generated: GeneratedIndex[] = [];
  for (const dir of dirs) {
    const entries = (conceptsByDir.get(dir) ?? []).map(conceptEntry);
    for (const child of childDirs.get(dir) ?? []) {
      const description = described.get(child);
      if (description === undefined) continue;
      const name = child.slice(child.lastIndexOf("/") + 1);
      entries.push({
        section: SUBDIRECTORIES,
        title: name,
        link: `${linkPath(name)}/index.md`,
        description,
      });
    }
    if (entries.length === 0) continue;
    const ordered = orderEntries(entries);
    const path = dir === "" ? "index.md" : `${dir}/index.md`;
    const prefix = dir === "" ? rootFrontMatter(bundle) : "";
    generated.push({ path, content: prefix + render(ordered) });
    described.set(dir, describe(ordered));
  }
  return generated;
}

function conceptEntry(doc: BundleDocument): Entry {
  const data = doc.frontMatter!.data;
  const name = doc.path.slice(doc.path.lastIndexOf("/") + 1);
  return {
    section: text(data.type) || "Other",
    title: text(data.title) || name.slice(0, -".md".length),
    link: linkPath(name),
    description: text(data.description),
  };
}

/** Sections by name, entries by case-folded title; equal titles keep file-name order. */
function orderEntries(entries: Entry[]): Entry[] {
  return [...entries].sort((a, b) =>
    compare(a.section, b.section) || compare(a.title.toLowerCase(), b.title.toLowerCase())
  );
}

function render(entries: Entry[]): string {
  const sections: string[] = [];
  let current: string | null = null;
  for (const e of entries) {
    if (e.section !== current) {
      sections.push(`# ${e.section}\n`);
      current = e.section;
    }
    const title = e.title.replace(/[[\]\\]/g, "\\$&");
    sections[sections.length - 1] += `\n* [${title}](${e.link})${
      e.description ? ` - ${e.description}` : ""
    }`;
  }
  return sections.join("\n\n") + "\n";
}

function describe(entries: Entry[]): string {
  if (entries.length === 1 && entries[0]!.description) return entries[0]!.description;
  return `Contains ${entries.length} entries: ${entries.map((e) => e.title).join(", ")}.`;
}

function rootFrontMatter(bundle: LoadedBundle): string {
  const raw = bundle.documents.find((d) => d.path === "index.md")?.frontMatterRaw ?? "";
  if (!raw) return "";
  return (raw.endsWith("\n") ? raw : `${raw}\n`) + "\n";
}

/** A scalar front matter value as one line of text; anything else is "". */
function text(value: unknown): string {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    return "";
  }
  return String(value).replace(/\s+/g, " ").trim();
}

/**
 * A file or folder name as a link destination that `resolveLink` reads back
 * as the same name: whitespace and parentheses would end it, `#` and `?`
 * would start a fragment or query, `%` an escape, `:` a URL scheme, `<` an
 * angle-bracket destination, a backtick a code span, a backslash an escape.
 */
export function linkPath(name: string): string {
  return name.replace(/[\s()<>#?%:`\\[\]]/gu, percentEncode);
}

function percentEncode(char: string): string {
  return [...new TextEncoder().encode(char)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i === -1 ? "" : path.slice(0, i);
}

function depth(dir: string): number {
  return dir === "" ? 0 : dir.split("/").length;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
