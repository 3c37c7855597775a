// Over 400 lines: the code chunker's tests, one per behaviour, across the languages it parses.
import assert from "node:assert/strict";
import { copyFile, readdir, readFile } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { WayfinderError } from "../error.ts";
import type { Chunk, SourceFile } from "../types.ts";
import { detectLanguage } from "../walk/mod.ts";
import { countNonWhitespace } from "./make_chunk.ts";
import { Language } from "web-tree-sitter";
import { type CodeChunker, createCodeChunker } from "./chunk_code.ts";
import { LANGUAGES } from "./languages.ts";
import { chunkFile } from "./chunk_file.ts";
import { assertGolden } from "../testdata/golden.ts";
import { FIXTURES, fromFile, fromText } from "../testdata/source_files.ts";

const SAMPLES = fileURLToPath(new URL("../../fixtures/samples/", import.meta.url));
const GOLDENS = new URL("chunk/goldens/", FIXTURES);
/** The peer's corpus, vendored (see fixtures/ATTRIBUTION.md). */
const CORPUS = fileURLToPath(new URL("../../fixtures/corpus/", import.meta.url));

/** One chunker for the file: the runtime and grammars load once. */
const chunkerReady: Promise<CodeChunker> = createCodeChunker();

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
}

async function codeSamples(chunker: CodeChunker): Promise<SourceFile[]> {
  const paths = await filesUnder(SAMPLES);
  const code = paths.filter((p) => chunker.languages.includes(detectLanguage(p)));
  return Promise.all(code.map((p) => fromFile(p, relative(SAMPLES, p))));
}

async function corpus(): Promise<SourceFile[]> {
  const paths = (await filesUnder(CORPUS)).filter((p) => detectLanguage(p) !== "json");
  return Promise.all(paths.map((p) => fromFile(p, relative(CORPUS, p))));
}

/**
 * Non-whitespace text no chunk covers, apart from the brackets, separators and keywords
 * (Ruby's and Elixir's `end`) that close containers.
 */
function uncovered(file: SourceFile, chunks: readonly Chunk[]): string {
  let left = "";
  let at = 0;
  for (const chunk of chunks) {
    left += file.content.slice(at, chunk.startOffset);
    at = Math.max(at, chunk.endOffset);
  }
  left += file.content.slice(at);
  return left.replace(/\bend\b/g, "").replace(/[\s{}()[\];,]/g, "");
}

/** Consecutive chunks leave only whitespace between them. */
function assertContiguous(content: string, chunks: readonly Chunk[]): void {
  for (let i = 1; i < chunks.length; i++) {
    assert.equal(content.slice(chunks[i - 1].endOffset, chunks[i].startOffset).trim(), "");
  }
}

Deno.test("createCodeChunker() chunks every sample like its golden", async () => {
  const chunker = await chunkerReady;
  const samples = await codeSamples(chunker);
  assert.ok(samples.length >= 14, "expected the code samples");
  for (const file of samples) {
    const chunks = chunker.chunk(file, detectLanguage(file.path));
    const compact = chunks.map((c) => ({
      id: c.id,
      type: c.type,
      symbol: c.symbol ?? null,
      parent: c.parent ?? null,
      lineStart: c.lineStart,
      lineEnd: c.lineEnd,
    }));
    await assertGolden(new URL(`${basename(file.path)}.json`, GOLDENS), compact);
  }
});

Deno.test("createCodeChunker() keeps offsets, order and content on samples and the peer corpus", async () => {
  const chunker = await chunkerReady;
  const files = [...(await codeSamples(chunker)), ...(await corpus())];
  assert.ok(files.length >= 28);
  for (const file of files) {
    const language = detectLanguage(file.path);
    const chunks = chunkFile(file, language, chunker);
    assert.ok(chunks.length > 0, `${file.path} has chunks`);
    let previousEnd = 0;
    for (const chunk of chunks) {
      assert.equal(file.content.slice(chunk.startOffset, chunk.endOffset), chunk.content);
      assert.equal(chunk.language, language);
    }
    if (chunker.supports(language)) {
      for (const chunk of chunks) {
        assert.ok(
          chunk.startOffset >= previousEnd,
          `${file.path}: chunks overlap at ${chunk.lineStart}`,
        );
        previousEnd = chunk.endOffset;
      }
      assert.equal(uncovered(file, chunks), "", `${file.path} loses code between chunks`);
      for (const chunk of chunks) {
        assert.ok(
          countNonWhitespace(chunk.content) <= 1500,
          `${file.path}:${chunk.lineStart} over budget`,
        );
      }
    }
  }
});

Deno.test("createCodeChunker() qualifies members with their class", async () => {
  const chunker = await chunkerReady;
  const [file] = (await corpus()).filter((f) => f.path.endsWith("auth_service.dart"));
  const chunks = chunker.chunk(file, "dart");
  const header = chunks.find((c) => c.type === "class")!;
  assert.equal(header.symbol, "AuthService");
  assert.match(header.content, /^\/\/\/ .*\nclass AuthService \{/);
  const methods = chunks.filter((c) => c.type === "method");
  assert.ok(methods.length >= 5);
  for (const method of methods) {
    assert.equal(method.parent, "AuthService");
    assert.match(method.symbol!, /^AuthService\.\w+$/);
  }
  const constructor = chunks.find((c) => c.type === "constructor")!;
  assert.equal(constructor.symbol, "AuthService.AuthService");
});

Deno.test("createCodeChunker() gives a Dart method its doc comment, signature and body", async () => {
  const chunker = await chunkerReady;
  const file = await fromFile(join(SAMPLES, "calculator.dart"), "calculator.dart");
  const chunks = chunker.chunk(file, "dart", { minChars: 0 });
  const divide = chunks.find((c) => c.symbol === "Calculator.divide")!;
  assert.equal(divide.type, "method");
  assert.equal(divide.parent, "Calculator");
  assert.equal(
    divide.content,
    "/// Divides two numbers.\n  double divide(double a, double b) {\n    if (b == 0) {\n" +
      "      throw ArgumentError('Cannot divide by zero');\n    }\n    return a / b;\n  }",
  );
  assert.deepEqual(
    chunks.map((c) => c.symbol),
    [
      "Calculator",
      "Calculator.add",
      "Calculator.subtract",
      "Calculator.multiply",
      "Calculator.divide",
      "MathUtils",
      "MathUtils.square",
      "MathUtils.cube",
    ],
  );
});

Deno.test("createCodeChunker() types members by their syntax in each language", async () => {
  const chunker = await chunkerReady;
  const typeOf = async (name: string, symbol: string) => {
    const file = await fromFile(join(SAMPLES, name), name);
    return chunker.chunk(file, detectLanguage(name), { minChars: 0 }).find((c) =>
      c.symbol === symbol
    )?.type;
  };
  assert.equal(await typeOf("event_bus.js", "EventBus.size"), "getter");
  assert.equal(await typeOf("event_bus.js", "EventBus.constructor"), "constructor");
  assert.equal(await typeOf("inventory.py", "Inventory.__init__"), "constructor");
  assert.equal(await typeOf("inventory.py", "to_json"), "function");
  assert.equal(await typeOf("server.go", "Store.Get"), "method");
  assert.equal(await typeOf("server.go", "Store"), "struct");
  assert.equal(await typeOf("server.go", "Getter"), "interface");
  assert.equal(await typeOf("shapes.rs", "Circle.diameter"), "method");
  assert.equal(await typeOf("shapes.rs", "tests.circle_area"), "function");
  assert.equal(await typeOf("BankAccount.java", "BankAccount.BankAccount"), "constructor");
  assert.equal(await typeOf("TodoList.tsx", "toggle"), "function");
  assert.equal(await typeOf("TodoList.tsx", "Filter"), "type");
});

Deno.test("createCodeChunker() attaches comments, decorators and attributes to what follows", async () => {
  const chunker = await chunkerReady;
  const java = await fromFile(join(SAMPLES, "BankAccount.java"), "BankAccount.java");
  const deposit = chunker.chunk(java, "java").find((c) => c.symbol === "BankAccount.deposit")!;
  assert.match(deposit.content, /^\/\*\*\n {5}\* Deposits a positive amount\./);
  const rust = await fromFile(join(SAMPLES, "shapes.rs"), "shapes.rs");
  const circle = chunker.chunk(rust, "rust").find((c) => c.type === "struct")!;
  assert.match(
    circle.content,
    /^\/\/\/ A circle.*\n#\[derive\(Debug, Clone, Copy\)\]\npub struct Circle/,
  );
  const python = await fromFile(join(SAMPLES, "inventory.py"), "inventory.py");
  const total = chunker.chunk(python, "python", { minChars: 0 }).find((c) =>
    c.symbol === "Inventory.total"
  )!;
  assert.match(total.content, /^@property\n {4}def total/);
});

Deno.test("createCodeChunker() splits an oversized function between statements", async () => {
  const chunker = await chunkerReady;
  const statements = Array.from(
    { length: 40 },
    (_, i) => `  const value${i} = compute(${i}, "padding");`,
  );
  const content = `import { compute } from "./compute";\n\nexport function big() {\n${
    statements.join("\n")
  }\n  return value0;\n}\n`;
  const file = fromText("big.ts", content);
  const chunks = chunker.chunk(file, "typescript", { maxChars: 300 });
  const parts = chunks.filter((c) => c.symbol === "big");
  assert.ok(parts.length >= 5, `expected parts, got ${parts.length}`);
  parts.forEach((part, i) => {
    assert.deepEqual(part.metadata, { part: i + 1, parts: parts.length });
    assert.equal(part.type, "function");
    assert.ok(countNonWhitespace(part.content) <= 300);
    if (i > 0) assert.match(part.content, /^ {2}(const value\d+ =|return value0;)/);
  });
  assert.ok(parts[0].content.startsWith("export function big() {\n"));
  assert.ok(parts.at(-1)!.content.endsWith("return value0;\n}"));
  assertContiguous(content, parts);
});

Deno.test("createCodeChunker() cuts a single overlong line within budget", async () => {
  const chunker = await chunkerReady;
  const content = `const data = "${"x".repeat(700)}😀${"y".repeat(300)}";\n`;
  const chunks = chunker.chunk(fromText("data.js", content), "javascript", { maxChars: 250 });
  assert.ok(chunks.length >= 4);
  assertContiguous(content, chunks);
  assert.equal(chunks[0].startOffset, 0);
  assert.equal(chunks.at(-1)!.endOffset, content.trimEnd().length);
  for (const chunk of chunks) assert.ok(countNonWhitespace(chunk.content) <= 250);
});

Deno.test("createCodeChunker() keeps UTF-16 offsets after non-ASCII text", async () => {
  const chunker = await chunkerReady;
  const content =
    `// Grüße 😀 — ünïcödé\nconst greeting = "héllo 😀";\n\nfunction wave(): string {\n  return greeting;\n}\n`;
  const file = fromText("wave.ts", content);
  const wave = chunker.chunk(file, "typescript", { minChars: 0 }).find((c) => c.symbol === "wave")!;
  assert.equal(wave.content, "function wave(): string {\n  return greeting;\n}");
  assert.equal(wave.lineStart, 4);
  assert.equal(content.slice(wave.startOffset, wave.endOffset), wave.content);
});

Deno.test("createCodeChunker() names a generic Rust impl or Swift extension after its type, not its arguments", async () => {
  const chunker = await chunkerReady;
  const content = [
    "impl<T: AsRawFd> AsyncFd<T> {\n    pub fn get_ref(&self) -> &T {\n        &self.inner\n    }\n}",
    "impl<'a> TaskMeta<'a> {\n    pub fn spawned_at(&self) -> u32 {\n        self.at\n    }\n}",
    "impl<T> fmt::Debug for JoinSet<T> {\n    fn fmt(&self) -> u8 {\n        0\n    }\n}",
  ].join("\n\n");
  const chunks = chunker.chunk(fromText("lib.rs", content), "rust", { minChars: 0 });
  const symbols = chunks.map((c) => c.symbol);
  for (const name of ["AsyncFd.get_ref", "TaskMeta.spawned_at", "JoinSet.fmt"]) {
    assert.ok(symbols.includes(name), `${name} in ${symbols.join(", ")}`);
  }
  const swift =
    "extension Dictionary<String, Int> {\n    func total() -> Int {\n        return 0\n    }\n}";
  const extension = chunker.chunk(fromText("a.swift", swift), "swift", { minChars: 0 });
  assert.equal(extension[0]!.symbol, "Dictionary");
});

Deno.test("createCodeChunker() merges small neighbours and keeps small classes whole", async () => {
  const chunker = await chunkerReady;
  const content =
    'import a from "a";\nimport b from "b";\n\nconst LIMIT = 3;\n\nclass Tiny {\n  x = 1;\n  go() {\n    return a(b);\n  }\n}\n';
  const chunks = chunker.chunk(fromText("tiny.js", content), "javascript");
  assert.deepEqual(chunks.map((c) => [c.type, c.symbol]), [["module", "LIMIT"], ["class", "Tiny"]]);
  assert.equal(chunks[0].content, 'import a from "a";\nimport b from "b";\n\nconst LIMIT = 3;');
  const apart = chunker.chunk(fromText("tiny.js", content), "javascript", { minChars: 0 });
  assert.deepEqual(apart.map((c) => c.type), ["imports", "imports", "variable", "class", "method"]);
});

Deno.test("createCodeChunker() joins only runs of small neighbours, never a normal-size one", async () => {
  const chunker = await chunkerReady;
  const steps = Array.from({ length: 6 }, (_, i) => `  const step${i} = run(step${i - 1} + ${i});`);
  const content = [
    'import { run } from "./run.ts";',
    'import { describe } from "./describe.ts";',
    "",
    "/** `tool status`: reports the index's state. */",
    "export const statusCommand = {",
    '  name: "status",',
    '  summary: "Report the index state (ready, indexing, stale, failed, absent) from disk",',
    '  positionals: ["root", "other"],',
    "  run(root: string): number {",
    "    return describe(run(root)).length;",
    "  },",
    "};",
    "",
    "/** At most this many paths per list. */",
    "const LISTED = 5;",
    "",
    "export function summarize(step0: number): number {",
    ...steps.slice(1),
    "  return step5 + LISTED;",
    "}",
    "",
    "export function shortOne(): number {",
    "  return LISTED;",
    "}",
    "",
  ].join("\n");
  const chunks = chunker.chunk(fromText("status.ts", content), "typescript");
  assert.deepEqual(chunks.map((c) => [c.type, c.symbol ?? "", c.lineStart, c.lineEnd]), [
    ["imports", "", 1, 2],
    ["variable", "statusCommand", 4, 12],
    ["variable", "LISTED", 14, 15],
    ["function", "summarize", 17, 24],
    ["function", "shortOne", 26, 28],
  ]);
  assert.ok(chunks.every((c) => c.metadata.symbols === undefined));
  // The case itself: small imports and LISTED around a normal-size declaration.
  const sizes = chunks.map((c) => countNonWhitespace(c.content));
  assert.ok(sizes[0] < 200 && sizes[1] >= 200 && sizes[2] < 200, `sizes ${sizes}`);

  const tiny = [
    "export const A = 1;",
    "export const B = 2;",
    "const C = 3;",
    "export let d = 4;",
    "var e = 5;",
    "",
    "export function f(): number {",
    "  return A + B + C + d + e;",
    "}",
    "",
  ].join("\n");
  const joined = chunker.chunk(fromText("tiny.ts", tiny), "typescript");
  assert.deepEqual(joined.map((c) => [c.type, c.symbol ?? "", c.lineStart, c.lineEnd]), [
    ["variable", "", 1, 5],
    ["function", "f", 7, 9],
  ]);
  assert.deepEqual(joined[0].metadata.symbols, ["A", "B", "C", "d", "e"]);

  // A file's doc comment makes its first import normal-size; the imports still stay one chunk.
  const headed = [
    "/**",
    " * Builds the report that the status command prints, from what the index holds on disk,",
    " * without loading a model: the state, the generation, the counts and what changed since,",
    " * so a caller can tell whether the index is current before searching it.",
    " */",
    'import { run } from "./run.ts";',
    'import { describe } from "./describe.ts";',
    'import { escape } from "./escape.ts";',
    "",
    "const LIMIT = 3;",
    "",
  ].join("\n");
  const imports = chunker.chunk(fromText("headed.ts", headed), "typescript");
  assert.deepEqual(imports.map((c) => [c.type, c.symbol ?? "", c.lineStart, c.lineEnd]), [
    ["imports", "", 1, 8],
    ["variable", "LIMIT", 10, 10],
  ]);
});

Deno.test("createCodeChunker() keeps TypeScript overload signatures with their implementation", async () => {
  const chunker = await chunkerReady;
  const content = [
    "/** Formats a value. */",
    "export function format(value: string): string;",
    "export function format(value: number): string;",
    "export function format(value: string | number): string {",
    "  return String(value);",
    "}",
    "",
    "declare function other(value: string): void;",
    "function another(): void {}",
    "",
    "export class Box {",
    "  constructor(value: string);",
    "  constructor(value: unknown) {}",
    "",
    "  /** Reads a field. */",
    "  get(key: string): string;",
    "  get(key: number): number;",
    "  get(key: string | number): string | number {",
    "    return key;",
    "  }",
    "",
    "  size(): number;",
    "  put(key: string): void {}",
    "}",
    "",
    "abstract class Shape {",
    "  abstract area(): number;",
    "  abstract area(scale: number): number;",
    "}",
    "",
  ].join("\n");
  for (const language of ["typescript", "tsx"]) {
    const file = fromText(language === "tsx" ? "box.tsx" : "box.ts", content);
    const chunks = chunker.chunk(file, language, { minChars: 0 });
    assert.deepEqual(chunks.map((c) => [c.type, c.symbol ?? "", c.lineStart, c.lineEnd]), [
      ["function", "format", 1, 6],
      ["function", "other", 8, 8],
      ["function", "another", 9, 9],
      ["class", "Box", 11, 11],
      ["constructor", "Box.constructor", 12, 13],
      ["method", "Box.get", 15, 20],
      ["method", "Box.size", 22, 22],
      ["method", "Box.put", 23, 23],
      ["class", "Shape", 26, 26],
      ["method", "Shape.area", 27, 28],
    ], language);
    const format = chunks[0];
    assert.ok(format.content.startsWith("/** Formats a value. */\nexport function format("));
    assert.ok(format.content.endsWith("return String(value);\n}"));
  }
  // JavaScript has no overloads: same-named functions stay apart.
  const js = "function f(a) {\n  return a;\n}\nfunction f(a, b) {\n  return b;\n}\n";
  const apart = chunker.chunk(fromText("f.js", js), "javascript", { minChars: 0 });
  assert.deepEqual(apart.map((c) => [c.symbol, c.lineStart]), [["f", 1], ["f", 4]]);
});

Deno.test("createCodeChunker() rejects a language it has no grammar for and bad budgets", async () => {
  const chunker = await chunkerReady;
  const file = fromText("a.sql", "SELECT 1;\n");
  assert.equal(chunker.supports("sql"), false);
  assert.equal(await chunker.load("sql"), false);
  assert.throws(
    () => chunker.chunk(file, "sql"),
    (e) => e instanceof WayfinderError && e.code === "input",
  );
  assert.throws(
    () => chunker.chunk(fromText("a.ts", "let x = 1;\n"), "typescript", { maxChars: 0 }),
    (e) => e instanceof WayfinderError && e.code === "usage",
  );
});

Deno.test("createCodeChunker() loads grammars from grammarDir", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const shipped = fileURLToPath(new URL(import.meta.resolve("tree-sitter-wasms/package.json")));
    await copyFile(join(shipped, "../out/tree-sitter-go.wasm"), join(dir, "tree-sitter-go.wasm"));
    const chunker = await createCodeChunker({ grammarDir: dir, languages: ["go"] });
    assert.equal(chunker.supports("go"), true);
    assert.equal(chunker.supports("python"), false);
    const chunks = chunker.chunk(
      fromText("a.go", "package a\n\nfunc A() int {\n\treturn 1\n}\n"),
      "go",
    );
    assert.equal(chunks.at(-1)!.symbol, "A");
    await assert.rejects(
      chunker.load("python"),
      (e) => e instanceof WayfinderError && e.code === "io",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("chunkFile() falls back to text for languages without a grammar", async () => {
  const chunker = await chunkerReady;
  const sql = fromText("a.sql", "CREATE TABLE t (id INT);\n\nSELECT id FROM t;\n");
  const chunks = chunkFile(sql, "sql", chunker);
  assert.equal(chunks.length, 1);
  assert.equal(chunks[0].type, "text");
  assert.equal(chunks[0].language, "sql");
  const goOnly = await createCodeChunker({ languages: ["go"] });
  const python = chunkFile(fromText("a.py", "def f():\n    return 1\n"), "python", goOnly);
  assert.deepEqual(python.map((c) => [c.type, c.language]), [["text", "python"]]);
  const markdown = chunkFile(fromText("a.md", "# Title\n\nSome words.\n"), "markdown", chunker);
  assert.ok(markdown.some((c) => c.type === "heading" || c.symbol === "Title"));
  assert.deepEqual(chunkFile(fromText("blank.ts", "\n\n"), "typescript", chunker), []);
});

Deno.test("LANGUAGES names only node types its grammars have", async () => {
  await chunkerReady; // initialises the runtime
  const rootOf = (name: string) =>
    fileURLToPath(new URL(".", import.meta.resolve(`${name}/package.json`)));
  const out = join(rootOf("tree-sitter-wasms"), "out");
  for (const [id, spec] of Object.entries(LANGUAGES)) {
    const folder = spec.package ? rootOf(spec.package) : out;
    const grammar = await Language.load(
      await readFile(join(folder, `tree-sitter-${spec.grammar}.wasm`)),
    );
    const rules = [...Object.values(spec.declarations), ...Object.values(spec.calls?.rules ?? {})];
    const types = [
      ...Object.keys(spec.declarations),
      ...(spec.calls ? [spec.calls.node] : []),
      ...rules.flatMap((r) => [...(r.body ?? []), ...Object.keys(r.refine ?? {})]),
      ...spec.imports,
      ...spec.comments,
      ...spec.prefixes,
      ...spec.wrappers,
      ...spec.trailingBodies,
      ...spec.blocks,
      ...spec.flatten,
      ...spec.overloads,
    ];
    const unknown = types.filter((t) =>
      grammar.idForNodeType(t, true) === null && grammar.idForNodeType(t, false) === null
    );
    assert.deepEqual(unknown, [], `${id} names node types its grammar lacks`);
    if (spec.calls) assert.ok(grammar.fields.includes(spec.calls.callee), `${id}'s callee field`);
  }
});

Deno.test("createCodeChunker() names declarations in C, C++, C#, Ruby and Kotlin", async () => {
  const chunker = await chunkerReady;
  const cases: Array<[string, string, string, Array<[string, string]>]> = [
    [
      "c",
      "a.h",
      "#ifndef A_H\n#define A_H\n#include <stdio.h>\n\n/* Adds. */\nstatic int add(int a, int b) {\n  return a + b;\n}\n\ntypedef struct { int x; } point;\n#endif\n",
      [["module", "A_H"], ["function", "add"], ["type", "point"]],
    ],
    [
      "cpp",
      "a.cpp",
      "namespace geo {\n/// A shape.\nclass Shape {\n public:\n  Shape(int n) : n_(n) {}\n  int sides() const { return n_; }\n private:\n  int n_;\n};\n}\n",
      [["namespace", "geo"], ["class", "geo.Shape"], ["constructor", "geo.Shape.Shape"], [
        "method",
        "geo.Shape.sides",
      ], ["field", "geo.Shape.n_"]],
    ],
    [
      "c_sharp",
      "a.cs",
      'using System;\nnamespace Demo {\n  public class Greeter {\n    public Greeter(string n) { }\n    public string Greet() {\n      return "hi";\n    }\n  }\n}\n',
      [["imports", ""], ["namespace", "Demo"], ["class", "Demo.Greeter"], [
        "constructor",
        "Demo.Greeter.Greeter",
      ], ["method", "Demo.Greeter.Greet"]],
    ],
    [
      "ruby",
      "a.rb",
      '# A greeter.\nclass Greeter < Base\n  def initialize(name)\n    @name = name\n  end\n\n  def greet\n    "hi"\n  end\nend\n',
      [["class", "Greeter"], ["constructor", "Greeter.initialize"], ["method", "Greeter.greet"]],
    ],
    [
      "kotlin",
      "a.kt",
      "/** A counter. */\nclass Counter(val start: Int) {\n    fun inc(): Int {\n        return start + 1\n    }\n}\n\nfun main() {\n    println(Counter(1).inc())\n}\n",
      [["class", "Counter"], ["method", "Counter.inc"], ["function", "main"]],
    ],
  ];
  for (const [language, path, content, expected] of cases) {
    const chunks = chunker.chunk(fromText(path, content), language, { minChars: 0 });
    assert.deepEqual(chunks.map((c) => [c.type, c.symbol ?? ""]), expected, language);
  }
});

Deno.test("createCodeChunker() names declarations in PHP, Scala, Swift, Bash, Elixir and Zig", async () => {
  const chunker = await chunkerReady;
  const cases: Array<[string, string, string, Array<[string, string]>]> = [
    [
      "php",
      "a.php",
      "<?php\nnamespace App\\Mail;\nclass Mailer {\n  public function __construct() {}\n  public function send($to) { return 1; }\n}\nfunction helper() {}\n",
      [
        ["imports", ""],
        ["namespace", "App\\Mail"],
        ["class", "Mailer"],
        [
          "constructor",
          "Mailer.__construct",
        ],
        ["method", "Mailer.send"],
        ["function", "helper"],
      ],
    ],
    [
      "scala",
      "a.scala",
      "object Shapes {\n  val unit = 1\n  def area(r: Double): Double = r * r\n}\ntrait Shape { def name: String }\n",
      // The header keeps the fields right after it.
      [["class", "Shapes"], ["method", "Shapes.area"], ["trait", "Shape"], [
        "method",
        "Shape.name",
      ]],
    ],
    [
      "swift",
      "a.swift",
      "struct Point {\n  init(x: Int) { self.x = x }\n  var x: Int\n  func moved(by d: Int) -> Point { Point(x: x + d) }\n}\nfunc origin() -> Point { Point(x: 0) }\n",
      [["struct", "Point"], ["constructor", "Point.init"], ["field", "Point.x"], [
        "method",
        "Point.moved",
      ], ["function", "origin"]],
    ],
    [
      "bash",
      "a.sh",
      // `case` sends the grammar's scanner to `isalpha`, which the runtime gets renamed.
      '#!/bin/sh\n{\nlog() {\n  echo "$1"\n}\nexport ROOT=/x\nfunction main {\n  case $1 in a) log hi;; esac\n}\n}\n',
      [["module", ""], ["function", "log"], ["variable", "ROOT"], ["function", "main"]],
    ],
    [
      "elixir",
      "a.ex",
      'defmodule Shop.Cart do\n  @doc "Adds."\n  def add(cart, item) when is_map(item), do: [item | cart]\n  defp total(cart), do: length(cart)\n  defmacro debug(x), do: x\nend\n',
      [["module", "Shop.Cart"], ["function", "Shop.Cart.add"], ["function", "Shop.Cart.total"], [
        "macro",
        "Shop.Cart.debug",
      ]],
    ],
    [
      "zig",
      "a.zig",
      'const std = @import("std");\npub const Point = struct {\n    x: i32,\n    pub fn norm(self: Point) i32 {\n        return self.x;\n    }\n};\nfn main() void {}\n',
      // The struct's header keeps its fields.
      [["variable", "std"], ["struct", "Point"], ["method", "Point.norm"], ["function", "main"]],
    ],
  ];
  for (const [language, path, content, expected] of cases) {
    assert.equal(detectLanguage(path), language);
    const chunks = chunker.chunk(fromText(path, content), language, { minChars: 0 });
    assert.deepEqual(chunks.map((c) => [c.type, c.symbol ?? ""]), expected, language);
  }
});

Deno.test("every grammar parses a text the same way twice in one process", async () => {
  const chunker = await chunkerReady;
  // A grammar whose scanner keeps state between parses (tree-sitter-wasms' Lua does) would
  // chunk every file after the first from a broken tree.
  for (const file of await codeSamples(chunker)) {
    const language = detectLanguage(file.path);
    const once = chunker.chunk(file, language).map((c) => [c.type, c.symbol, c.lineStart]);
    const twice = chunker.chunk(file, language).map((c) => [c.type, c.symbol, c.lineStart]);
    assert.deepEqual(twice, once, file.path);
  }
});

Deno.test("createCodeChunker() names declarations in Lua and Haskell", async () => {
  const chunker = await chunkerReady;
  const lua = [
    "local M = {}",
    "function M.add(a, b) return a + b end",
    "function M:get() return self.value end",
    "M.run = function() end",
    "local function helper() end",
    "return M",
    "",
  ].join("\n");
  const luaChunks = chunker.chunk(fromText("m.lua", lua), "lua", { minChars: 0 });
  assert.deepEqual(luaChunks.map((c) => [c.type, c.symbol ?? ""]), [
    ["variable", "M"],
    ["function", "M.add"],
    ["function", "M.get"],
    ["function", "M.run"],
    ["function", "helper"],
    ["module", ""],
  ]);
  const haskell = [
    "module Shapes (area) where",
    "import Data.List (sort)",
    "data Shape = Circle Double | Square Double",
    "class HasArea a where",
    "  area :: a -> Double",
    "instance HasArea Shape where",
    "  area (Circle r) = pi * r * r",
    "  area (Square s) = s * s",
    "-- | The largest area first.",
    "largest :: [Shape] -> [Double]",
    "largest [] = []",
    "largest xs = reverse (sort (map area xs))",
    "",
  ].join("\n");
  const chunks = chunker.chunk(fromText("Shapes.hs", haskell), "haskell", { minChars: 0 });
  assert.deepEqual(chunks.map((c) => [c.type, c.symbol ?? ""]), [
    ["imports", ""],
    ["imports", ""],
    ["type", "Shape"],
    // A class's signatures stay in its header.
    ["interface", "HasArea"],
    // An instance is named after its type, as a Rust impl is.
    ["impl", "Shape"],
    ["method", "Shape.area"],
    ["function", "largest"],
  ]);
  // The signature, the doc comment and both equations are one chunk.
  assert.ok(chunks.at(-1)!.content.startsWith("-- | The largest area first.\nlargest ::"));
  assert.ok(chunks.at(-1)!.content.endsWith("reverse (sort (map area xs))"));
  // Small Haskell declarations merge in runs, as small fields do elsewhere.
  const merged = chunker.chunk(fromText("Shapes.hs", haskell), "haskell");
  assert.ok(merged.length < chunks.length);
  assert.ok(
    merged.some((c) => c.content.includes("import Data") && c.content.includes("data Shape")),
  );
});
