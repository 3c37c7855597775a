/**
 * Splits a markdown document into its YAML front matter and body, and parses
 * the front matter with limits a hostile document cannot get past.
 */
import { isMap, isScalar, isSeq, LineCounter, type ParsedNode, parseDocument } from "yaml";

/**
 * Aliases resolved per document at most: a "billion laughs" front matter
 * needs thousands, real ones need none.
 */
export const MAX_YAML_ALIASES = 50;
/** Front matter past this size is refused unparsed, so YAML never sees a huge block. */
export const MAX_FRONT_MATTER_BYTES = 1 << 20;

/** A 1-based position in the file. */
export interface Position {
  line: number;
  column: number;
}

/** Parsed front matter. */
export interface FrontMatter {
  data: Record<string, unknown>;
  /** Position of each top-level key, in file coordinates. */
  keys: Map<string, Position>;
  /**
   * For each top-level key holding a list: where each item starts and, for
   * a mapping item, where each of its keys is (so a finding can point at `sources[2].id`).
   */
  items: Map<string, ItemPosition[]>;
  /** The block exactly as written, delimiters and final newline included. */
  raw: string;
}

/** Where one list item of the front matter is. */
export interface ItemPosition {
  at: Position;
  keys: Map<string, Position>;
}

/** A document split into front matter and body. */
export interface SplitDocument {
  /**
   * "absent": no opening `---`; "unclosed": an opening without a closing
   * line; "oversized": closed, but past {@link MAX_FRONT_MATTER_BYTES}, so left unparsed.
   */
  block: "absent" | "unclosed" | "oversized" | "present";
  /** The YAML between the delimiters (present only). */
  yaml: string;
  /** The block as written, delimiters included (present only). */
  raw: string;
  /** 1-based line of the first YAML line. */
  yamlLine: number;
  body: string;
  /** 1-based line where the body starts. */
  bodyLine: number;
}

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*(?:\r?\n|$)/gm;

/** Splits off a front matter block opened by `---` on the first line and closed by the next `---` line. */
export function splitFrontMatter(text: string): SplitDocument {
  const open = OPENING.exec(text);
  if (!open) return { block: "absent", yaml: "", raw: "", yamlLine: 1, body: text, bodyLine: 1 };
  CLOSING.lastIndex = open[0].length;
  const close = CLOSING.exec(text);
  if (!close) {
    return { block: "unclosed", yaml: "", raw: "", yamlLine: 2, body: text, bodyLine: 1 };
  }
  const end = close.index + close[0].length;
  const yaml = text.slice(open[0].length, close.index);
  const bodyLine = 2 + countLines(yaml) + 1;
  if (yaml.length > MAX_FRONT_MATTER_BYTES) {
    return { block: "oversized", yaml: "", raw: "", yamlLine: 2, body: text.slice(end), bodyLine };
  }
  return {
    block: "present",
    yaml,
    raw: text.slice(0, end),
    yamlLine: 2,
    body: text.slice(end),
    bodyLine,
  };
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** The front matter as a mapping, or why it is not one. */
export type ParsedYaml =
  | { ok: true; frontMatter: FrontMatter }
  | { ok: false; message: string; line: number; column: number };

/**
 * Parses the YAML of a split document. Duplicate keys, syntax errors,
 * excessive aliases and a non-mapping top level are failures; an empty
 * block is an empty mapping.
 */
export function parseYamlBlock(split: SplitDocument): ParsedYaml {
  const lines = new LineCounter();
  let doc;
  try {
    // The parser's own duplicate-key check is quadratic in a mapping's size: see firstDuplicateKey.
    doc = parseDocument(split.yaml, {
      lineCounter: lines,
      prettyErrors: false,
      uniqueKeys: false,
    });
  } catch (e) {
    // The parser recurses per nesting level: absurd nesting exhausts the stack.
    const why = e instanceof RangeError ? "it nests too deeply to parse" : (e as Error).message;
    return { ok: false, message: why, line: split.yamlLine, column: 1 };
  }
  const at = (offset: number) => {
    const pos = lines.linePos(offset);
    return { line: pos.line + split.yamlLine - 1, column: pos.col };
  };
  // Whichever comes first in the file is the failure reported, as the parser would order them.
  const error = doc.errors[0];
  const duplicate = firstDuplicateKey(doc.contents);
  if (duplicate !== null && (!error || duplicate.offset < error.pos[0])) {
    const message = `Key \`${duplicate.key}\` is repeated in its mapping; keep one of them`;
    return { ok: false, message, ...at(duplicate.offset) };
  }
  if (error) {
    return { ok: false, message: firstLine(error.message), ...at(error.pos[0]) };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    return { ok: false, message: firstLine((e as Error).message), line: split.yamlLine, column: 1 };
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    return { ok: false, message: "front matter is not a mapping of keys to values", ...at(0) };
  }
  const keys = new Map<string, Position>();
  const items = new Map<string, ItemPosition[]>();
  for (const pair of isMap(doc.contents) ? doc.contents.items : []) {
    if (!isScalar(pair.key) || !pair.key.range) continue;
    const key = String(pair.key.value);
    const keyAt = at(pair.key.range[0]);
    keys.set(key, keyAt);
    if (isSeq(pair.value)) {
      // One position per item, so indexes match the parsed list; an item without one gets the key's.
      items.set(
        key,
        pair.value.items.map((item) => itemAt(item, at) ?? { at: keyAt, keys: new Map() }),
      );
    }
  }
  data ??= {};
  const frontMatter = { data: data as Record<string, unknown>, keys, items, raw: split.raw };
  return { ok: true, frontMatter };
}

/**
 * The first scalar key repeated in its mapping, at any depth, and its
 * offset, or null. Keys are equal as the parser compares them (same scalar value); one
 * set per mapping keeps it linear, and an explicit stack keeps deep nesting
 * off the call stack.
 */
function firstDuplicateKey(root: ParsedNode | null): { key: string; offset: number } | null {
  let first: { key: string; offset: number } | null = null;
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const { key, value } of node.items) {
        if (isScalar(key)) {
          const start = key.range?.[0];
          if (
            seen.has(key.value) && start !== undefined && (first === null || start < first.offset)
          ) {
            first = { key: String(key.value), offset: start };
          }
          seen.add(key.value);
        }
        stack.push(key, value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
  return first;
}

/** Where a list item and, if it is a mapping, each of its scalar keys start. */
function itemAt(item: unknown, at: (offset: number) => Position): ItemPosition | null {
  const range = (item as { range?: [number, number, number] } | null)?.range;
  if (!range) return null;
  const keys = new Map<string, Position>();
  for (const pair of isMap(item) ? item.items : []) {
    if (isScalar(pair.key) && pair.key.range) {
      keys.set(String(pair.key.value), at(pair.key.range[0]));
    }
  }
  return { at: at(range[0]), keys };
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "").trim();
}
