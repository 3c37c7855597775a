import type { Node } from "web-tree-sitter";
import { declarationName, kids, qualify } from "./declaration_name.ts";
import type { DeclarationRule, LanguageSpec } from "./languages.ts";

/** A span the code chunker will emit, before oversized ones are split. */
export interface Piece {
  start: number;
  end: number;
  type: string;
  symbol?: string;
  parent?: string;
  /** Syntax nodes the span covers, searched for statements when splitting. */
  nodes: Node[];
  /** Symbols of merged neighbours. */
  symbols?: string[];
}

/** Settings shared by one file's walk. */
export interface WalkContext {
  text: string;
  spec: LanguageSpec;
  maxChars: number;
  minChars: number;
  /** Non-whitespace characters of a span of `text` (see `nonWhitespaceCounter`). */
  count: (start: number, end: number) => number;
}

/** Where a declaration sits. */
interface Scope {
  symbol?: string;
  /** Inside a class-like container, functions are methods. */
  classLike: boolean;
}

/** A run of sibling nodes that becomes one piece or one declaration. */
interface Item {
  start: number;
  end: number;
  nodes: Node[];
  kind: "declaration" | "imports" | "other";
  declaration?: Node;
  rule?: DeclarationRule;
}

/** Types that small neighbours of may share a chunk. */
const MERGEABLE = new Set(["imports", "module", "variable", "constant", "field"]);

/** Tokens that open a container's body, after any keywords before them (`struct {`, `do`). */
const OPENERS = new Set(["{", "do"]);

/** Tokens that close a container's body. */
const CLOSERS = new Set(["}", ")", "]", "end", "#endif", "fi", "done", "esac"]);

function size(ctx: WalkContext, start: number, end: number): number {
  return ctx.count(start, end);
}

/** How a node declares: by its type, or by the macro it calls (Elixir's `def`); none for code. */
function ruleOf(node: Node, spec: LanguageSpec): DeclarationRule | undefined {
  if (Object.hasOwn(spec.declarations, node.type)) return spec.declarations[node.type];
  const calls = spec.calls;
  if (!calls || node.type !== calls.node) return undefined;
  const callee = node.childForFieldName(calls.callee)?.text;
  return callee !== undefined && Object.hasOwn(calls.rules, callee)
    ? calls.rules[callee]
    : undefined;
}

/** The declaration inside a wrapper (`export class …`), or the node itself when it is one. */
function unwrap(node: Node, spec: LanguageSpec): Node | undefined {
  let current: Node | undefined = node;
  for (let depth = 0; current && depth < 3; depth++) {
    if (ruleOf(current, spec)) return current;
    if (!spec.wrappers.includes(current.type)) return undefined;
    current = current.childForFieldName("declaration") ??
      current.childForFieldName("definition") ??
      kids(current, true).find((c) => ruleOf(c, spec) || spec.wrappers.includes(c.type));
  }
  return undefined;
}

/**
 * Groups sibling nodes into items: leading comments and annotations join
 * the node after them, trailing punctuation and same-line comments the node
 * before, and Dart's detached bodies their signature.
 */
function collectItems(children: readonly Node[], ctx: WalkContext, inBody = false): Item[] {
  const { spec, text } = ctx;
  const items: Item[] = [];
  const pending: Node[] = [];
  const extend = (item: Item, node: Node) => {
    item.end = node.endIndex;
    item.nodes.push(node);
  };
  const sameLine = (item: Item | undefined, node: Node) =>
    item !== undefined && !text.slice(item.end, node.startIndex).includes("\n");
  const flushPending = () => {
    if (pending.length === 0) return;
    const stray = pending.splice(0);
    items.push({
      start: stray[0].startIndex,
      end: stray.at(-1)!.endIndex,
      nodes: stray,
      kind: "other",
    });
  };
  for (const child of children) {
    const last = items.at(-1);
    if (!child.isNamed) {
      // Punctuation ends what it follows on its line. A body's closing
      // delimiter on a line of its own belongs to no member and is left out;
      // any other stray token (error recovery) leads what follows.
      if (pending.length === 0 && last && sameLine(last, child)) extend(last, child);
      else if (!(inBody && child === children.at(-1) && CLOSERS.has(child.type))) {
        pending.push(child);
      }
      continue;
    }
    const isComment = spec.comments.includes(child.type);
    if (isComment && pending.length === 0 && sameLine(last, child)) {
      extend(last!, child);
      continue;
    }
    if (isComment || spec.prefixes.includes(child.type)) {
      pending.push(child);
      continue;
    }
    if (spec.trailingBodies.includes(child.type) && pending.length === 0 && last?.declaration) {
      extend(last, child);
      continue;
    }
    // Comments and annotations before a node introduce it, even across a blank line
    // (a "// User methods" section comment belongs with what follows).
    items.push(itemOf(pending.splice(0), child, spec));
  }
  flushPending();
  return joinOverloads(ctx, items);
}

/**
 * Joins each overload signature to the declaration after it when both have
 * the same name, so signatures and implementation are one item named once.
 */
function joinOverloads(ctx: WalkContext, items: Item[]): Item[] {
  if (ctx.spec.overloads.length === 0) return items;
  const joined: Item[] = [];
  let signature: Item | undefined;
  for (let item of items) {
    if (signature && item.declaration && sameName(ctx, signature, item)) {
      joined.pop();
      item = { ...item, start: signature.start, nodes: [...signature.nodes, ...item.nodes] };
    }
    joined.push(item);
    const overload = item.declaration && ctx.spec.overloads.includes(item.declaration.type);
    signature = overload ? item : undefined;
  }
  return joined;
}

function sameName(ctx: WalkContext, a: Item, b: Item): boolean {
  const name = declarationName(ctx, a.declaration!, a.rule!);
  return name !== undefined && name === declarationName(ctx, b.declaration!, b.rule!);
}

/** A named node as an item, led by the comments and annotations before it. */
function itemOf(leading: Node[], child: Node, spec: LanguageSpec): Item {
  const declaration = unwrap(child, spec);
  return {
    start: leading[0]?.startIndex ?? child.startIndex,
    end: child.endIndex,
    nodes: [...leading, child],
    kind: declaration ? "declaration" : spec.imports.includes(child.type) ? "imports" : "other",
    declaration,
    rule: declaration ? ruleOf(declaration, spec) : undefined,
  };
}

/** The rule's type, refined by a keyword or node among the children or named grandchildren. */
function refineType(node: Node, rule: DeclarationRule): string {
  const refine = rule.refine;
  if (!refine) return rule.type;
  const children = kids(node);
  for (const child of children) if (refine[child.type]) return refine[child.type];
  for (const child of children) {
    if (!child.isNamed) continue;
    for (const grandchild of kids(child, true)) {
      if (refine[grandchild.type]) return refine[grandchild.type];
    }
  }
  return rule.type;
}

function findBody(node: Node, rule: DeclarationRule): Node | undefined {
  const body = rule.body!;
  if (body.includes(node.type)) return node;
  const byField = node.childForFieldName("body");
  if (byField && body.includes(byField.type)) return byField;
  return kids(node, true).find((c) => body.includes(c.type));
}

/** The members of a body, and where the container's header ends. */
function bodyLayout(
  ctx: WalkContext,
  node: Node,
  body: Node,
): { members: Node[]; headerEnd: number } {
  let members = kids(body);
  if (body === node) {
    const name = node.childForFieldName("name");
    const after = name ? name.endIndex : node.startIndex;
    members = members.filter((c) => c.startIndex >= after);
  }
  members = members.flatMap((c) => ctx.spec.flatten.includes(c.type) ? kids(c) : [c]);
  // Keywords before the opening token belong to the header (Zig's `struct {`).
  const opener = members.find((c) => c.isNamed || OPENERS.has(c.type));
  if (opener && !opener.isNamed) {
    return { members: members.slice(members.indexOf(opener) + 1), headerEnd: opener.endIndex };
  }
  const open = members[0];
  const firstStart = open ? open.startIndex : body.startIndex;
  const headerEnd = ctx.text.slice(0, firstStart).trimEnd().length;
  return { members, headerEnd: Math.max(headerEnd, node.startIndex) };
}

function declarationPieces(ctx: WalkContext, item: Item, scope: Scope): Piece[] {
  const node = item.declaration!;
  const rule = item.rule!;
  let type = refineType(node, rule);
  if (scope.classLike && rule.member && type === rule.type) type = rule.member;
  const name = declarationName(ctx, node, rule);
  const own = scope.symbol?.slice(scope.symbol.lastIndexOf(".") + 1);
  if (type === "method" && name && (ctx.spec.constructors.includes(name) || name === own)) {
    type = "constructor";
  }
  let parent = scope.symbol;
  if (rule.receiver) {
    const receiver = node.childForFieldName(rule.receiver);
    const owner = receiver?.descendantsOfType("type_identifier")[0];
    if (owner) parent = qualify(parent, owner.text);
  }
  const symbol = name ? qualify(parent, name) : parent;
  const leaf: Piece = { start: item.start, end: item.end, type, symbol, parent, nodes: item.nodes };
  const body = rule.body ? findBody(node, rule) : undefined;
  if (!body || size(ctx, item.start, item.end) <= ctx.minChars) return [leaf];

  const { members, headerEnd } = bodyLayout(ctx, node, body);
  const inner = itemPieces(ctx, collectItems(members, ctx, true), {
    symbol: rule.transparent ? scope.symbol : symbol,
    classLike: !rule.namespace,
  });
  const header: Piece = { start: item.start, end: headerEnd, type, symbol, parent, nodes: [] };
  // The header keeps the fields right after it, within budget.
  let absorbed = 0;
  for (const piece of inner) {
    if (!MERGEABLE.has(piece.type) || size(ctx, header.start, piece.end) > ctx.maxChars) break;
    header.end = piece.end;
    absorbed++;
  }
  return [header, ...inner.slice(absorbed), ...tailPiece(ctx, item, body, leaf)];
}

/**
 * What follows a split container's body inside its declaration (`} point;`
 * in C, error recovery's leftovers): a piece of its own, unless it is just
 * a closing token (Ruby's `end`) or the `;` after one, which no chunk needs.
 */
function tailPiece(ctx: WalkContext, item: Item, body: Node, leaf: Piece): Piece[] {
  const tail = ctx.text.slice(body.endIndex, item.end);
  if (/^(?:[)\]}]|end|#endif|fi|done|esac)?[;,]*$/.test(tail.trim())) return [];
  const start = body.endIndex + tail.length - tail.trimStart().length;
  return [{ ...leaf, start, end: item.end, nodes: [] }];
}

/**
 * Joins runs of small mergeable neighbours (imports, constants, fields)
 * within budget. Only small pieces join, and only a run of them: a
 * normal-size piece is never extended, so its symbol and lines stay its
 * own. Imports name nothing: a small one joins any imports before it (a
 * file's doc comment makes its first import normal-size).
 */
function mergeSmall(ctx: WalkContext, pieces: readonly Piece[]): Piece[] {
  const merged: Piece[] = [];
  const small = (piece: Piece) => size(ctx, piece.start, piece.end) < ctx.minChars;
  const mergeable = (type: string) => MERGEABLE.has(type) || ctx.spec.mergeable.includes(type);
  // Whether the last merged piece is a run of small pieces, open to more.
  let runOpen = false;
  for (const piece of pieces) {
    const last = merged.at(-1);
    const joins = last !== undefined && last.parent === piece.parent &&
      small(piece) && size(ctx, last.start, piece.end) <= ctx.maxChars &&
      ((runOpen && mergeable(last.type) && mergeable(piece.type)) ||
        (last.type === "imports" && piece.type === "imports"));
    if (!joins) {
      merged.push({ ...piece });
      runOpen = small(piece);
      continue;
    }
    const symbols = [
      ...(last.symbols ?? (last.symbol ? [last.symbol] : [])),
      ...(piece.symbols ?? (piece.symbol ? [piece.symbol] : [])),
    ];
    last.end = piece.end;
    last.nodes = [...last.nodes, ...piece.nodes];
    if (last.type !== piece.type) last.type = "module";
    last.symbols = symbols;
    last.symbol = symbols.length === 1 ? symbols[0] : undefined;
  }
  return merged;
}

function itemPieces(ctx: WalkContext, items: readonly Item[], scope: Scope): Piece[] {
  const pieces = items.flatMap((item): Piece[] => {
    if (item.kind === "declaration") return declarationPieces(ctx, item, scope);
    const type = item.kind === "imports" ? "imports" : scope.classLike ? "field" : "module";
    return [{ start: item.start, end: item.end, type, parent: scope.symbol, nodes: item.nodes }];
  });
  return mergeSmall(ctx, pieces);
}

/**
 * The pieces of a parsed file, in order: one per declaration, a header and
 * one per member for containers, and module or imports pieces for the code
 * between declarations. Oversized pieces are split later.
 */
export function codePieces(ctx: WalkContext, root: Node): Piece[] {
  const top = kids(root).flatMap((c) => ctx.spec.flatten.includes(c.type) ? kids(c) : [c]);
  const items = withSkippedText(ctx.text, collectItems(top, ctx));
  return itemPieces(ctx, items, { classLike: false });
}

/**
 * Adds the text error recovery skipped without a node (`"a` after an
 * unterminated string) as items of its own, so no visible text is lost.
 */
function withSkippedText(text: string, items: Item[]): Item[] {
  const out: Item[] = [];
  let from = 0;
  for (const item of [...items, { start: text.length, end: text.length } as Item]) {
    const gap = text.slice(from, item.start);
    const lead = gap.length - gap.trimStart().length;
    const trimmed = gap.trim();
    if (trimmed) {
      out.push({ start: from + lead, end: from + lead + trimmed.length, nodes: [], kind: "other" });
    }
    if (item.end > item.start || item.start < text.length) out.push(item);
    from = Math.max(from, item.end);
  }
  return out;
}
