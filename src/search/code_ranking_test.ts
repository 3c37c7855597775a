import assert from "node:assert/strict";
import type { Chunk } from "../types.ts";
import {
  EMBEDDING_RANKING,
  LEXICAL_RANKING,
  rankCode,
  RANKING_STEPS,
  rankingActs,
  type RankingSignals,
} from "./code_ranking.ts";

function chunk(sourcePath: string, content = "", symbol?: string): Chunk {
  return {
    id: `${sourcePath}:${content}`,
    sourcePath,
    lineStart: 1,
    lineEnd: 1,
    startOffset: 0,
    endOffset: 0,
    type: "function",
    language: "go",
    content,
    symbol,
    metadata: {},
  };
}

/** `chunk` in another language than Go. */
function chunkIn(language: string, sourcePath: string, content = "", symbol?: string): Chunk {
  return { ...chunk(sourcePath, content, symbol), language };
}

/** Ranks chunks given with their retrieval scores; returns their paths:contents best first. */
function ranked(
  rows: [Chunk, number][],
  query: string,
  steps = {},
  signals: RankingSignals = {},
): string[] {
  const out = rankCode(
    rows.map(([, score], row) => ({ row, score })),
    (row) => rows[row]![0],
    query,
    steps,
    signals,
  );
  return out.map(({ row }) =>
    `${rows[row]![0].sourcePath}${rows[row]![0].content ? `:${rows[row]![0].content}` : ""}`
  );
}

const ONLY = (step: string) => Object.fromEntries(RANKING_STEPS.map((s) => [s, s === step]));

Deno.test("rankCode() lifts a sentence's subject, the first name a candidate defines, over its later names", () => {
  const rows: [Chunk, number][] = [
    [chunk("Encoder.scala", "trait Encoder[A] {"), 10],
    [chunk("Codec.scala", "trait Codec[A] extends Decoder[A] with Encoder[A]"), 9.5],
    [chunk("Decoder.scala", "trait Decoder[A] {"), 8],
  ];
  // `Gin` leads, but nothing defines it: `Codec` is the subject.
  const query = "the Gin Codec combining Encoder and Decoder";
  assert.deepEqual(ranked(rows, query, ONLY("definitions")), [
    "Codec.scala:trait Codec[A] extends Decoder[A] with Encoder[A]",
    "Encoder.scala:trait Encoder[A] {",
    "Decoder.scala:trait Decoder[A] {",
  ]);
  // Led by `Encoder`, the sentence is about the encoder.
  assert.equal(
    ranked(rows, "Encoder and Codec and Decoder", ONLY("definitions"))[0],
    "Encoder.scala:trait Encoder[A] {",
  );
});

Deno.test("rankCode() lifts the type a sentence names by a capitalised word", () => {
  const rows: [Chunk, number][] = [
    [chunk("route.swift", "let request = Request(url) // builds a request type"), 10],
    [chunk("Request.swift", "public final class Request {"), 6],
    [chunk("z.swift", "z"), 0],
  ];
  const query = "Request type and HTTP request representation";
  assert.deepEqual(ranked(rows, query, ONLY("definitions")).slice(0, 2), [
    "Request.swift:public final class Request {",
    "route.swift:let request = Request(url) // builds a request type",
  ]);
  assert.deepEqual(
    ranked(rows, query.toLowerCase(), ONLY("definitions"))[0],
    "route.swift:let request = Request(url) // builds a request type",
  );
});

Deno.test("rankCode() puts a test below the code it tests, and keeps the order without priors", () => {
  // Scores are min-max normalised over the candidates first: 10, 8, 1 → 1, .8, .1.
  const rows: [Chunk, number][] = [
    [chunk("mux_test.go"), 10],
    [chunk("mux.go"), 8],
    [chunk("other.go"), 1],
  ];
  assert.deepEqual(ranked(rows, "route", ONLY("pathPriors")), [
    "mux.go",
    "mux_test.go",
    "other.go",
  ]);
  assert.deepEqual(ranked(rows, "route", ONLY("none")), ["mux_test.go", "mux.go", "other.go"]);
});

Deno.test("rankCode() lifts the chunk that defines the queried name, most in the file named after it", () => {
  const rows: [Chunk, number][] = [
    [chunk("server.go", "m := NewMux()"), 10],
    [chunk("tree.go", "type Mux struct {"), 5],
    [chunk("mux.go", "type Mux struct {"), 5],
  ];
  assert.deepEqual(ranked(rows, "Mux", ONLY("definitions")), [
    "mux.go:type Mux struct {",
    "tree.go:type Mux struct {",
    "server.go:m := NewMux()",
  ]);
  // A sentence without an identifier boosts nothing.
  assert.deepEqual(ranked(rows, "the mux", ONLY("definitions"))[0], "server.go:m := NewMux()");
});

Deno.test("rankCode() lifts a class's declaration above its constructors and doc comment for its name", () => {
  const rows: [Chunk, number][] = [
    [{
      ...chunk("Mapper.java", "public Mapper(Mapper src) { this(src); }", "Mapper.Mapper"),
      type: "constructor",
    }, 10],
    [{ ...chunk("Mapper.java", "/** Mapper reads and writes JSON", "Mapper"), type: "class" }, 6],
    [{
      ...chunk("Mapper.java", "/** tail of the doc */\npublic class Mapper {", "Mapper"),
      type: "class",
    }, 3],
  ];
  assert.deepEqual(ranked(rows, "Mapper", ONLY("definitions")), [
    "Mapper.java:/** tail of the doc */\npublic class Mapper {",
    "Mapper.java:/** Mapper reads and writes JSON",
    "Mapper.java:public Mapper(Mapper src) { this(src); }",
  ]);
});

Deno.test("rankCode() takes the file named after a class, not a part of it, as its home", () => {
  const rows: [Chunk, number][] = [
    [chunk("JsonTextWriter.Async.cs", "public partial class JsonTextWriter"), 10],
    [chunk("JsonTextWriter.cs", "public partial class JsonTextWriter : JsonWriter"), 9],
  ];
  assert.equal(
    ranked(rows, "JsonTextWriter", ONLY("definitions"))[0],
    "JsonTextWriter.cs:public partial class JsonTextWriter : JsonWriter",
  );
});

Deno.test("rankCode() takes a C macro's #define and Rust's macro_rules! as the macro's definition", () => {
  const rows: [Chunk, number][] = [
    [chunkIn("cpp", "absl/log/check.h", 'ABSL_LOG(INFO) << "checked";'), 10],
    [
      chunkIn(
        "cpp",
        "absl/log/absl_log.h",
        "#define ABSL_LOG(severity) ABSL_LOG_INTERNAL_LOG_IMPL(_##severity)",
      ),
      5,
    ],
    [chunkIn("cpp", "z.h", "z"), 0],
  ];
  assert.equal(
    ranked(rows, "ABSL_LOG", ONLY("definitions"))[0],
    "absl/log/absl_log.h:#define ABSL_LOG(severity) ABSL_LOG_INTERNAL_LOG_IMPL(_##severity)",
  );
  const rust: [Chunk, number][] = [
    [chunkIn("rust", "src/lib.rs", "let v = try_join!(a, b);"), 10],
    [chunkIn("rust", "src/macros/join.rs", "macro_rules! try_join {"), 5],
    [chunkIn("rust", "z.rs", "z"), 0],
  ];
  assert.equal(
    ranked(rust, "try_join", ONLY("definitions"))[0],
    "src/macros/join.rs:macro_rules! try_join {",
  );
});

Deno.test("rankCode() reads C++ attribute macros and binders as a definition's syntax", () => {
  const rows: [Chunk, number][] = [
    [chunk("mutex.cc", "const Mutex& mu = *m;\nconst Mutex::MuHow how;"), 10],
    [chunk("sync.h", "class ABSL_LOCKABLE Mutex {"), 4],
    [chunk("app.js", "const Router = express.Router;"), 2],
  ];
  assert.deepEqual(ranked(rows, "Mutex", ONLY("definitions")), [
    "sync.h:class ABSL_LOCKABLE Mutex {",
    "mutex.cc:const Mutex& mu = *m;\nconst Mutex::MuHow how;",
    "app.js:const Router = express.Router;",
  ]);
  assert.equal(
    ranked(rows, "Router", ONLY("definitions"))[0],
    "app.js:const Router = express.Router;",
  );
});

Deno.test("rankCode() takes a C struct's body or typedef as its definition, not its uses or forward declarations", () => {
  const c = (path: string, content: string, symbol?: string) => ({
    ...chunkIn("c", path, content, symbol),
    type: "struct",
  });
  const rows: [Chunk, number][] = [
    [c("progress.h", "struct Curl_easy;", "Curl_easy"), 10],
    [c("cookie.c", "struct Curl_easy *data = conn->data;\nstruct Curl_easy *make(void);"), 9],
    [c("urldata.h", "struct Curl_easy {\n  int magic;\n};", "Curl_easy"), 2],
  ];
  assert.equal(
    ranked(rows, "Curl_easy", ONLY("definitions"))[0],
    "urldata.h:struct Curl_easy {\n  int magic;\n};",
  );
  // A typedef defines the name it ends with, as a plain one or a function pointer's.
  const typedefs: [Chunk, number][] = [
    [c("loop.c", "uv_loop_t* loop = uv_default_loop();"), 10],
    [c("uv.h", "typedef struct uv_loop_s uv_loop_t;"), 1],
    [c("cb.h", "typedef void (*uv_close_cb)(uv_handle_t* handle);"), 1],
  ];
  assert.equal(
    ranked(typedefs, "uv_loop_t", ONLY("definitions"))[0],
    "uv.h:typedef struct uv_loop_s uv_loop_t;",
  );
  assert.equal(
    ranked(typedefs, "uv_close_cb", ONLY("definitions"))[0],
    "cb.h:typedef void (*uv_close_cb)(uv_handle_t* handle);",
  );
  // In Rust, `struct Marker;` is a definition (a unit struct).
  const rust: [Chunk, number][] = [
    [chunkIn("rust", "use.rs", "let m = Marker;"), 10],
    [chunkIn("rust", "marker.rs", "pub struct Marker;"), 1],
  ];
  assert.equal(ranked(rust, "Marker", ONLY("definitions"))[0], "marker.rs:pub struct Marker;");
});

Deno.test("rankCode() lifts the file whose passages read closest to the query, when given", () => {
  const rows: [Chunk, number][] = [
    [chunk("local.rs", "fn tick()"), 10],
    [chunk("join_set.rs", "pub struct JoinSet"), 8],
    [chunk("other.rs", "fn other()"), 1],
  ];
  const cosines: Record<string, number> = { "local.rs": 0.2, "join_set.rs": 0.6, "other.rs": 0.1 };
  const signals = { fileSimilarity: (path: string) => cosines[path] };
  const query = "collect results of spawned tasks";
  const steps = ONLY("fileSimilarity");
  assert.deepEqual(ranked(rows, query, steps, signals)[0], "join_set.rs:pub struct JoinSet");
  // Without the signal, or with the step off, the order stays.
  assert.deepEqual(ranked(rows, query, steps)[0], "local.rs:fn tick()");
  assert.deepEqual(ranked(rows, query, ONLY("none"), signals)[0], "local.rs:fn tick()");
  // One file alone, or files all alike, give nothing to tell apart.
  const alike = { fileSimilarity: () => 0.5 };
  assert.deepEqual(ranked(rows, query, steps, alike)[0], "local.rs:fn tick()");
});

Deno.test("rankCode() lifts a file with several strong chunks, and spreads ranks over files", () => {
  const rows: [Chunk, number][] = [
    [chunk("a.go", "1"), 10],
    [chunk("b.go", "1"), 9.5],
    [chunk("b.go", "2"), 9],
    [chunk("a.go", "2"), 8],
    [chunk("c.go", "1"), 7],
    [chunk("z.go", "0"), 0],
  ];
  // Normalised (z.go anchors 0): a 1; b .955, .955, .865. Coherence lifts b's best by
  // .3 to 1.255, a's lone chunk by .3 × 1 / 2.775 to 1.108.
  const spread: [Chunk, number][] = [
    [chunk("a.go", "1"), 10],
    [chunk("b.go", "1"), 9.5],
    [chunk("b.go", "2"), 9.5],
    [chunk("b.go", "3"), 8.5],
    [chunk("z.go", "0"), 0],
  ];
  assert.equal(ranked(spread, "x", ONLY("fileCoherence"))[0], "b.go:1");
  assert.equal(ranked(spread, "x", ONLY("none"))[0], "a.go:1");
  // Two strong chunks (.892 each) pass one slightly stronger lone chunk (1): .892 + .3 against
  // 1 + .3 × 1 / 1.784 (a lift of .2 would leave a first).
  const pair: [Chunk, number][] = [
    [chunk("a.go", "1"), 10],
    [chunk("b.go", "1"), 8.8],
    [chunk("b.go", "2"), 8.8],
    [chunk("z.go", "0"), 0],
  ];
  assert.equal(ranked(pair, "x", ONLY("fileCoherence"))[0], "b.go:1");
  // Saturation: the second chunks of b.go (.91 × .7) and a.go (.82 × .7) fall below c.go (.73).
  assert.deepEqual(ranked(rows, "x", ONLY("fileSaturation")), [
    "a.go:1",
    "b.go:1",
    "c.go:1",
    "b.go:2",
    "a.go:2",
    "z.go:0",
  ]);
});

Deno.test("rankCode() saturates softly, compounding per chunk, and spares prose", () => {
  // Normalised over 0..10 to .1..1: a file's second chunk at 9 (.91) keeps .637 after one
  // decay, above another file's .595 (halving would drop it to .455); its third chunk at 8.5
  // (.865) decays twice to .424, below it.
  const code: [Chunk, number][] = [
    [chunk("a.go", "1"), 10],
    [chunk("a.go", "2"), 9],
    [chunk("a.go", "3"), 8.5],
    [chunk("d.go", "1"), 5.5],
    [chunk("z.go", "0"), 0],
  ];
  assert.deepEqual(ranked(code, "x", ONLY("fileSaturation")), [
    "a.go:1",
    "a.go:2",
    "d.go:1",
    "a.go:3",
    "z.go:0",
  ]);
  // A document's later section (.73) keeps its score; decayed it would fall below d.go (.64).
  const prose: [Chunk, number][] = [
    [chunk("guide.md", "1"), 10],
    [chunk("guide.md", "2"), 7],
    [chunk("d.go", "1"), 6],
    [chunk("z.go", "0"), 0],
  ];
  assert.deepEqual(ranked(prose, "x", ONLY("fileSaturation")).slice(0, 3), [
    "guide.md:1",
    "guide.md:2",
    "d.go:1",
  ]);
  const asCode = prose.map(([c, score]): [Chunk, number] => [
    { ...c, sourcePath: c.sourcePath.replace(".md", ".go") },
    score,
  ]);
  assert.deepEqual(ranked(asCode, "x", ONLY("fileSaturation")).slice(0, 3), [
    "guide.go:1",
    "d.go:1",
    "guide.go:2",
  ]);
});

Deno.test("rankCode() lifts files named by the query's words and lowers import lists", () => {
  const rows: [Chunk, number][] = [
    [chunk("server.ts", "serve"), 10],
    [chunk("router.ts", "merge"), 8],
    [chunk("z.ts", "z"), 0],
  ];
  assert.deepEqual(ranked(rows, "how routers are merged", ONLY("pathMatch")).slice(0, 2), [
    "router.ts:merge",
    "server.ts:serve",
  ]);
  // Words meet past their endings: "utility" names ArrayUtils.java, "parsing" parser.py.
  const utils: [Chunk, number][] = [
    [chunk("Conversion.java", "convert"), 10],
    [chunk("ArrayUtils.java", "toArray"), 9],
    [chunk("z.ts", "z"), 0],
  ];
  assert.equal(
    ranked(utils, "array utility operations", ONLY("pathMatch"))[0],
    "ArrayUtils.java:toArray",
  );
  const parsers: [Chunk, number][] = [
    [chunk("lexer.py", "scan"), 10],
    [chunk("parser.py", "parse"), 9],
    [chunk("z.ts", "z"), 0],
  ];
  assert.equal(ranked(parsers, "argument parsing", ONLY("pathMatch"))[0], "parser.py:parse");
  const imports = { ...chunk("a.ts", "import"), type: "imports" };
  const uses: [Chunk, number][] = [[imports, 10], [chunk("b.ts", "use"), 8], [
    chunk("z.ts", "z"),
    0,
  ]];
  assert.equal(ranked(uses, "x", ONLY("chunkTypes"))[0], "b.ts:use");
});

Deno.test("rankingActs() runs the definition boost alone only for a query naming an identifier", () => {
  assert.equal(rankingActs("Mux", EMBEDDING_RANKING), true);
  assert.equal(rankingActs("where does parseConfig read the file", EMBEDDING_RANKING), true);
  assert.equal(rankingActs("encrypt sensitive data", EMBEDDING_RANKING), false);
  assert.equal(rankingActs("user", EMBEDDING_RANKING), false);
  // Steps that move every query always run.
  assert.equal(rankingActs("encrypt sensitive data", LEXICAL_RANKING), true);
  assert.equal(rankingActs("user", { definitions: false, pathPriors: true }), true);
});
