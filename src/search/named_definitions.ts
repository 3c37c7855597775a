/**
 * The identifiers a query names, and the patterns by which a chunk defines
 * one: a definition keyword in any indexed language, C and C++'s stricter
 * forms, and the forward declarations that name without defining.
 */

const QUALIFIED = /^[A-Za-z_$][\w$]*(?:(?:::|\\|->|\.|#)[A-Za-z_$][\w$]*)+$/;
const IDENTIFIER = /^(?:_[\w$]*|[A-Za-z][A-Za-z0-9$]*[A-Z_][\w$]*|[A-Z][\w$]*)$/;
// An identifier inside a sentence: camelCase, PascalCase, snake_case, SCREAMING_SNAKE (a
// macro, a constant). A capitalised word (`Request type and HTTP request representation`)
// counts: queries name types so.
const EMBEDDED =
  /(?<![\w$])(?:[A-Z][a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]*|[a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]+|[a-z][a-z0-9]*_[a-z0-9_]+|[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z][a-z0-9]{2,})(?![\w$])/g;

// A qualified name inside a sentence: `Ecto.Schema`, `Plug::Conn`.
const EMBEDDED_QUALIFIED = /(?<![\w$])[A-Z][\w$]*(?:(?:::|\\|->|\.|#)[A-Za-z_$][\w$]*)+(?![\w$])/g;

/**
 * The identifiers a query names: the query itself when it is one (and its
 * last part when qualified: `Sinatra::Base` → `Base`), else the camelCase,
 * PascalCase (a capitalised word too), snake_case and SCREAMING_SNAKE words in
 * it, in the order they come, a qualified one as its last part. Lower-case
 * single words (`session`) are left to retrieval. `whole` says the query is
 * just a name.
 */
export function queriedIdentifiers(query: string): { names: string[]; whole: boolean } {
  const q = query.trim();
  if (QUALIFIED.test(q)) {
    const last = q.split(/::|\\|->|\.|#/).pop()!;
    return { names: [...new Set([last, q])], whole: true };
  }
  if (IDENTIFIER.test(q)) return { names: [q], whole: true };
  // A qualified name inside a sentence (`how Ecto.Schema defines …`) names its last part.
  const plain = q.replace(EMBEDDED_QUALIFIED, (name) => name.split(/::|\\|->|\.|#/).pop()!);
  return { names: [...new Set(plain.match(EMBEDDED) ?? [])], whole: false };
}

// Keywords that open a definition, across the languages indexed.
const DEFINERS = [
  "class",
  "abstract class",
  "data class",
  "case class",
  "sealed class",
  "sealed trait",
  "object",
  "case object",
  "module",
  "defmodule",
  "def",
  "defp",
  "defmacro",
  "interface",
  "struct",
  "enum",
  "trait",
  "type",
  "typealias",
  "typedef",
  "func",
  "function",
  "fn",
  "fun",
  "protocol",
  "record",
  "namespace",
  "impl",
  "extension",
  "newtype",
  "data",
  "local function",
  "macro_rules!",
].map((k) => k.replace(" ", "\\s+")).join("|");
// Keywords that bind a value: they define the name only when a value or type follows
// (`const Router = …`, `val engine: Engine`), not in C++'s `const Mutex& mu`.
const BINDERS = "const|let|var|val";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether `content` defines `name`: a definition keyword, attribute macros
 * (`class ABSL_LOCKABLE Mutex`), optional qualifiers, then the name.
 */
export function definitionPattern(name: string): RegExp {
  const qualified = `(?:[A-Z][A-Z0-9_]+\\s+)*(?:[\\w$]+(?:\\.|::))*${escape(name)}`;
  return new RegExp(
    `(?:^|[\\s(])(?:(?:${DEFINERS})\\s+${qualified}(?![\\w$])|(?:${BINDERS})\\s+${qualified}(?=\\s*(?:=|:(?!:))))`,
    "m",
  );
}

/** Languages whose `struct X` also names a type where it is only used or declared ahead. */
export const C_FAMILY = new Set(["c", "cpp"]);

/**
 * `definitionPattern` for C and C++, where `struct X *next;`, a return type
 * `struct X *make(void)` and a forward declaration `struct X;` spell the
 * keyword too: a body or a base list must follow the name (`struct X {`,
 * `class X : public Base`, `class X final`). A typedef defines the name it
 * ends with (`typedef struct uv_loop_s uv_loop_t;`, `} Point;`,
 * `typedef void (*uv_close_cb)(…)`).
 */
export function cDefinitionPattern(name: string): RegExp {
  const qualified = `(?:[A-Z][A-Z0-9_]+\\s+)*(?:[\\w$]+::)*${escape(name)}`;
  const n = escape(name);
  return new RegExp(
    `(?:^|[\\s(])(?:${DEFINERS})\\s+${qualified}(?=\\s*(?:\\{|:(?!:)|final\\b))` +
      `|#\\s*define\\s+${n}(?![\\w$])|\\btypedef\\b[^;{}]*[\\s*]${n}\\s*;|\\}\\s*${n}\\s*;|\\btypedef\\b[^;]*\\(\\s*\\*\\s*${n}\\s*\\)`,
    "m",
  );
}

/** `struct X;` and the like: a C or C++ forward declaration, which names without defining. */
export function forwardPattern(name: string): RegExp {
  return new RegExp(`(?:struct|class|union|enum)\\s+${escape(name)}\\s*;`);
}
