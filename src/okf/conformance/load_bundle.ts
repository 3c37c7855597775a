/**
 * Reads a bundle into memory: every markdown file decoded and split, its
 * front matter parsed. Per-file problems (bad UTF-8, unreadable files,
 * unparseable front matter) become findings, not exceptions.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { WayfinderError } from "../../error.ts";
import { projectRoot } from "../../project_root.ts";
import { decodeText } from "./decode_text.ts";
import type { Finding } from "./finding.ts";
import { type BundleListing, listBundle } from "./list_bundle.ts";
import { ruleFinding } from "./okf_rules.ts";
import { type FrontMatter, parseYamlBlock, splitFrontMatter } from "./parse_front_matter.ts";

/** What a markdown file is, by its name (§3.1). */
export type DocumentKind = "concept" | "index" | "log";

/** One markdown file of the bundle. */
export interface BundleDocument {
  /** Bundle-relative posix path. */
  path: string;
  kind: DocumentKind;
  /** "present" with `frontMatter` set when it parsed; "invalid" when it did not. */
  block: "absent" | "unclosed" | "oversized" | "present" | "invalid";
  frontMatter: FrontMatter | null;
  /** The front matter block as written, delimiters included, even when it did not parse. */
  frontMatterRaw: string;
  body: string;
  /** 1-based line where the body starts. */
  bodyLine: number;
}

/** A bundle read from disk. */
export interface LoadedBundle {
  /** Absolute path of the bundle root. */
  root: string;
  /** Every file (markdown or not), bundle-relative, sorted. */
  files: string[];
  /** Every directory, bundle-relative ("" is the root), sorted. */
  dirs: string[];
  /** Markdown files and folders whose names are not UTF-8 (see {@link BundleListing}). */
  badNames: BundleListing["badNames"];
  /** The markdown files that could be read and decoded, sorted by path. */
  documents: BundleDocument[];
  /** Problems met while reading. */
  findings: Finding[];
}

/**
 * Reads the bundle at `dir`.
 * @throws {WayfinderError} `io` when `dir` does not exist or cannot be listed; `usage` when it is
 *   a file or `/` (see {@link projectRoot}).
 */
export function loadBundle(dir: string): LoadedBundle {
  const root = resolve(dir);
  projectRoot(dir);
  let listing;
  try {
    listing = listBundle(root);
  } catch (error) {
    throw new WayfinderError("io", `Cannot list bundle '${dir}': ${(error as Error).message}`);
  }
  const documents: BundleDocument[] = [];
  const findings: Finding[] = listing.badNames.map(({ path, folder }) =>
    ruleFinding("okf/non-utf8-name", badNameMessage(folder), path)
  );
  for (const path of listing.files) {
    if (!path.endsWith(".md")) continue;
    const doc = readDocument(root, path, findings);
    if (doc) documents.push(doc);
  }
  const { files, dirs, badNames } = listing;
  return { root, files, dirs, badNames, documents, findings };
}

/** Why a file or folder whose name is not UTF-8 was not read, and what to do. */
function badNameMessage(folder: boolean): string {
  const unread = folder
    ? "folder's name is not UTF-8, so nothing in it was read"
    : "file's name is not UTF-8, so it cannot be read";
  return `The ${unread}; rename it (its bytes that are not UTF-8 are shown as \\xNN)`;
}

/** The kind of a markdown file by its base name. */
export function kindOf(path: string): DocumentKind {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === "index.md" ? "index" : name === "log.md" ? "log" : "concept";
}

function readDocument(root: string, path: string, findings: Finding[]): BundleDocument | null {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(`${root}/${path}`);
  } catch (error) {
    findings.push(ruleFinding("okf/unreadable", `Cannot read: ${(error as Error).message}`, path));
    return null;
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    const msg = "Not valid UTF-8: the first invalid byte is here; save the file as UTF-8";
    findings.push(ruleFinding("okf/invalid-utf8", msg, path, decoded.line, decoded.column));
    return null;
  }
  const kind = kindOf(path);
  const split = splitFrontMatter(decoded.text);
  const doc: BundleDocument = {
    path,
    kind,
    block: split.block,
    frontMatter: null,
    frontMatterRaw: split.raw,
    body: split.body,
    bodyLine: split.bodyLine,
  };
  if (split.block === "unclosed") {
    const msg = "Front matter opened with '---' has no closing '---' line";
    findings.push(ruleFinding("okf/invalid-front-matter", msg, path, 1, 1));
  } else if (split.block === "oversized") {
    const msg = `Front matter is over 1 MiB (it closes on line ${
      split.bodyLine - 1
    }); it is refused unparsed`;
    findings.push(ruleFinding("okf/invalid-front-matter", msg, path, 1, 1));
  } else if (split.block === "present") {
    const parsed = parseYamlBlock(split);
    if (parsed.ok) doc.frontMatter = parsed.frontMatter;
    else {
      doc.block = "invalid";
      const msg = `Front matter is not valid YAML: ${parsed.message}`;
      findings.push(ruleFinding("okf/invalid-front-matter", msg, path, parsed.line, parsed.column));
    }
  }
  return doc;
}
