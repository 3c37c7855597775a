/** Language ids by lower-case file extension (without the dot). */
const LANGUAGES: Readonly<Record<string, string>> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  dart: "dart",
  py: "python",
  pyi: "python",
  go: "go",
  rs: "rust",
  java: "java",
  md: "markdown",
  markdown: "markdown",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hh: "cpp",
  hpp: "cpp",
  hxx: "cpp",
  cs: "c_sharp",
  rb: "ruby",
  kt: "kotlin",
  kts: "kotlin",
  swift: "swift",
  php: "php",
  scala: "scala",
  sc: "scala",
  lua: "lua",
  sh: "bash",
  bash: "bash",
  bats: "bash",
  zsh: "bash",
  ex: "elixir",
  exs: "elixir",
  zig: "zig",
  hs: "haskell",
  lhs: "haskell",
  sql: "sql",
  json: "json",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  css: "css",
  html: "html",
  htm: "html",
};

/**
 * The language id of a file, from its extension; chunkers route on it.
 *
 * @param path A file path, relative or absolute, with either slash.
 * @param content The file's text, when known: a `.h` header that uses C++ is `cpp`.
 * @returns `typescript`, `tsx`, `javascript`, `dart`, `python`, `go`, `rust`,
 * `java`, `markdown`, `c`, `cpp`, `c_sharp`, `ruby`, `kotlin`, `swift`, `php`,
 * `scala`, `lua`, `bash`, `elixir`, `zig`, `haskell`, `sql`, `json`, `yaml`, `toml`,
 * `css`, `html`, or `text` for anything else (including files without an extension).
 *
 * @example Route by extension
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectLanguage } from "./mod.ts";
 *
 * assert.equal(detectLanguage("src/app.tsx"), "tsx");
 * assert.equal(detectLanguage("docs/README.MD"), "markdown");
 * assert.equal(detectLanguage("Makefile"), "text");
 * ```
 */
export function detectLanguage(path: string, content?: string): string {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  // A leading dot names a dotfile (".bashrc"), not an extension.
  if (dot <= 0) return "text";
  const extension = name.slice(dot + 1).toLowerCase();
  // `.h` serves C and C++ alike: a header that uses C++ is C++ (abseil's, fmt's).
  if (extension === "h" && content !== undefined && CPP_SIGNS.test(content)) return "cpp";
  return LANGUAGES[extension] ?? "text";
}

/** Syntax only C++ has: namespaces, templates, classes, access labels, `std::`. */
const CPP_SIGNS =
  /^\s*(?:namespace\s+[\w:]+\s*\{|template\s*<|class\s+\w+[^;(]*\{|(?:public|private|protected)\s*:|using\s+namespace\s)|\bstd::/m;

/** Names people use for a language besides its id and its extensions. */
const ALIASES: Readonly<Record<string, string>> = {
  csharp: "c_sharp",
  "c#": "c_sharp",
  "c++": "cpp",
  golang: "go",
  shell: "bash",
  txt: "text",
};

/**
 * The language id a name stands for, as chunks carry it: an id as it is
 * (`typescript`), a file extension (`ts`, `py`, `rs`, `md`) or a common
 * name (`csharp`, `golang`) mapped to the id, any case. An unknown name is
 * returned lower-cased, matching nothing it does not name.
 *
 * @example A filter's `--lang ts`
 * ```ts
 * import assert from "node:assert/strict";
 * import { languageId } from "./mod.ts";
 *
 * assert.equal(languageId("ts"), "typescript");
 * assert.equal(languageId("Python"), "python");
 * assert.equal(languageId("tsx"), "tsx");
 * ```
 */
export function languageId(name: string): string {
  const key = name.trim().toLowerCase();
  return ALIASES[key] ?? LANGUAGES[key] ?? key;
}
