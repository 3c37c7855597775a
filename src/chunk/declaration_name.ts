/**
 * What a declaration is called: the name its grammar rule points at, else
 * the first identifier below it, with the dotted parts some languages add
 * (Dart's `AppConfig.development`), qualified by its container.
 */
import type { Node } from "web-tree-sitter";
import type { WalkContext } from "./code_pieces.ts";
import type { DeclarationRule } from "./languages.ts";

const IDENTIFIERS = new Set([
  "identifier",
  "property_identifier",
  "private_property_identifier",
  "field_identifier",
  "simple_identifier",
  "constant",
  "name",
  // Elixir's module names (`Plug.Conn`).
  "alias",
]);

const NAME_DEPTH = 3;

/** A node's children (only the named ones when asked), without the nulls. */
export function kids(node: Node, named = false): Node[] {
  return (named ? node.namedChildren : node.children).filter((c): c is Node => c !== null);
}

/** The text of an identifier-ish node, without generics. */
function identifierText(ctx: WalkContext, node: Node): string {
  return ctx.text.slice(node.startIndex, node.endIndex).replace(/<[\s\S]*$/, "").trim();
}

/** The node(s) a field or child type names, joined (`Repo.named` is three name nodes in Dart). */
function namedBy(ctx: WalkContext, node: Node, key: string): string | undefined {
  const byField = node.childrenForFieldName(key).filter((c): c is Node => c !== null);
  const found = byField.length > 0 ? byField : kids(node).filter((c) => c.type === key).slice(0, 1);
  if (found.length === 0) return undefined;
  if (
    found.length === 1 && !IDENTIFIERS.has(found[0].type) && found[0].type !== "type_identifier"
  ) {
    return nameOf(ctx, found[0]) ?? (identifierText(ctx, found[0]) || undefined);
  }
  return ctx.text.slice(found[0].startIndex, found.at(-1)!.endIndex).replace(/\s+/g, "") ||
    undefined;
}

/** Tokens that join a name's parts: `.`, and Lua's `:` of a method (`Queue:push`). */
const NAME_JOINERS = new Set([".", ":"]);

/**
 * An identifier with the `.name` parts after it (Dart's `factory
 * AppConfig.development`), its parts joined by `.` as qualified symbols are.
 */
function dottedName(ctx: WalkContext, first: Node): string {
  const parts = [first];
  for (
    let dot = first.nextSibling;
    dot && NAME_JOINERS.has(dot.type) && dot.nextSibling;
    dot = parts.at(-1)!.nextSibling
  ) {
    if (!IDENTIFIERS.has(dot.nextSibling.type)) break;
    parts.push(dot.nextSibling);
  }
  return parts.map((part) => ctx.text.slice(part.startIndex, part.endIndex).trim()).join(".");
}

/**
 * A declaration's name: its `name` field, else its declarator's, else the
 * first identifier below it that is not a type, else a type name.
 */
function nameOf(ctx: WalkContext, node: Node, depth = 0): string | undefined {
  const direct = namedBy(ctx, node, "name") ?? namedBy(ctx, node, "declarator");
  if (direct) return direct;
  const children = kids(node, true);
  const identifier = children.find((c) => IDENTIFIERS.has(c.type));
  if (identifier) return dottedName(ctx, identifier);
  // A generic type's own name, before its arguments (`AsyncFd` of `AsyncFd<T>`, not `T`).
  const type = children.find((c) => c.type === "type_identifier");
  if (type && children.some((c) => c.type === "type_arguments")) return identifierText(ctx, type);
  if (depth < NAME_DEPTH) {
    for (const child of children) {
      if (ctx.spec.blocks.includes(child.type)) continue;
      const found = nameOf(ctx, child, depth + 1);
      if (found) return found;
    }
  }
  return type ? identifierText(ctx, type) : undefined;
}

/** A declaration's own name, as its rule places it or as `nameOf` finds it. */
export function declarationName(
  ctx: WalkContext,
  node: Node,
  rule: DeclarationRule,
): string | undefined {
  if (rule.literalName) {
    const name = node.childForFieldName("name");
    if (name) {
      return ctx.text.slice(name.startIndex, name.endIndex).replace(/\s+/g, "") || undefined;
    }
  }
  // A rule naming its name's place is trusted: no guessing below it.
  return rule.name ? namedBy(ctx, node, rule.name) : nameOf(ctx, node);
}

/** `name` qualified by its container's symbol. */
export function qualify(parent: string | undefined, name: string): string {
  if (!parent) return name;
  const dot = parent.lastIndexOf(".");
  const own = parent.slice(dot + 1);
  // A named constructor already carries its class (`AppConfig.development`).
  if (name.startsWith(`${own}.`)) return dot === -1 ? name : `${parent.slice(0, dot)}.${name}`;
  return `${parent}.${name}`;
}
