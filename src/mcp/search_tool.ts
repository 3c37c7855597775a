/** The `search` tool: a call's arguments over the root's search settings, answered with hits. */
import { z } from "zod";
import {
  type ConfiguredCorpus,
  type ConfiguredSearchOptions,
  resultJson,
  sourceReader,
} from "../cli/mod.ts";
import { renderSearch, SHOWN_LINES } from "./render.ts";
import type { Roots } from "./roots.ts";
import { SEARCH_OUTPUT } from "./search_output.ts";
import type { ToolRegistry } from "./tool_arguments.ts";
import { answer, clamp, LIMITS, ROOT, type RootArgument } from "./tool_answer.ts";

/** A root's search settings: the options, and the diversity `diverse: true` asks for. */
export interface SearchDefaults {
  options: ConfiguredSearchOptions;
  diversity?: { lambda?: number; fetchK?: number };
}

const LIST = (what: string) => z.array(z.string()).optional().describe(what);
const SEARCH_INPUT = {
  query: z.string().describe("What to look for, in plain language or identifiers"),
  root: ROOT,
  limit: z.number().int().min(1).optional().describe(
    `Hits wanted (default 10, at most ${LIMITS.limit})`,
  ),
  mode: z.enum(["dense", "lexical", "bm25", "hybrid"]).optional().describe(
    "hybrid (default on code: BM25 with code ranking, dense filling in), dense for questions " +
      "asked by meaning (default on knowledge bundles), lexical (BM25) for exact words only",
  ),
  path: LIST(
    "Only hits whose path, relative to the root, matches one of these: a glob without '/' matches " +
      "the file name at any depth (*.ts), one with '/' the whole path (src/**/*.ts); a path without " +
      "glob characters matches itself and everything below it (src/auth)",
  ),
  type: LIST("Only these chunk types: class, method, heading, …"),
  lang: LIST("Only these languages: ids (typescript) or extensions (ts, py, md)"),
  expand: z.boolean().optional().describe("Show each hit in its class, section or file"),
  diverse: z.boolean().optional().describe("Skip near-copies of better hits"),
  contextChars: z.number().int().min(1).optional().describe(
    `Also return prompt-ready context of at most this many characters (≤ ${LIMITS.contextChars})`,
  ),
  checkFresh: z.boolean().optional().describe(
    "Walk and hash the root's whole tree first, to count exactly the files changed since indexing " +
      "(slow on a large tree; by default a cheap check of its folders answers, and read_range flags a changed file)",
  ),
  current: z.boolean().optional().describe(
    "Knowledge bundles: drop deprecated concepts and those past stale_after",
  ),
  asOf: z.string().min(1).optional().describe(
    "Knowledge bundles, only together with `current` (this call's, or the server's when the call " +
      "omits it; refused otherwise): the date (YYYY-MM-DD) `current` judges staleness at; default today",
  ),
  status: LIST("Knowledge bundles: only concepts with these statuses"),
  conceptType: LIST("Knowledge bundles: only concepts of these types"),
  pathPrefix: LIST("Knowledge bundles: only concepts under these bundle paths"),
  governing: z.record(z.string()).optional().describe(
    "Knowledge bundles: lower concept path → the concept that governs it, shown before it",
  ),
  expandLinks: z.boolean().optional().describe(
    "Knowledge bundles: add each match's linked concepts (one hop) as context",
  ),
};
type SearchArgs = z.infer<z.ZodObject<typeof SEARCH_INPUT>>;

/** Registers `search`; `defaultsOf` gives what a call's omitted arguments mean for a root. */
export function registerSearch(
  server: ToolRegistry,
  roots: Roots,
  root: RootArgument,
  defaultsOf: (corpus: ConfiguredCorpus) => SearchDefaults,
): void {
  server.registerTool("search", {
    title: "Search code and docs",
    description:
      "Semantic search over an indexed source tree or knowledge bundle. Returns the best passages with " +
      `path:lineStart-lineEnd citations, each with its first ${SHOWN_LINES} lines (get_chunk with the ` +
      "hit's id returns the whole passage). The default mode fuses words and meaning (hybrid); 'dense' ranks by meaning alone, 'lexical' by words; " +
      "expand shows each hit in its class or section; contextChars returns prompt-ready context of at " +
      "most that many characters instead of the lines. Each score is labelled by what ranked the hit, " +
      "and the kinds do not compare: cos is dense cosine similarity (about 0 to 1), bm25 a lexical " +
      "match score (unbounded), rrf hybrid's rank fusion (at most about 0.033), rerank the " +
      "cross-encoder's, ranked the code ranking stage's (about 0 to 3; lexical and hybrid search of a " +
      "source tree, or any search for a named identifier). On a knowledge bundle, the policy arguments choose what is eligible and what " +
      "context comes with a match.",
    inputSchema: { ...SEARCH_INPUT, root },
    outputSchema: SEARCH_OUTPUT,
  }, (args: SearchArgs) =>
    answer(async () => {
      const corpus = roots.pick(args.root);
      const options = searchOptions(args, defaultsOf(corpus));
      const result = await corpus.search(args.query, options);
      const read = sourceReader(corpus.root);
      const text = renderSearch(result, { asOf: options.policy?.asOf, read });
      return { text, data: resultJson(result) };
    }));
}

/** A call's arguments over the server's defaults, clamped. */
function searchOptions(
  args: SearchArgs,
  { options: defaults, diversity }: SearchDefaults,
): ConfiguredSearchOptions {
  const policy = defaults.policy ?? {};
  const filter = defaults.filter ?? {};
  const current = args.current ?? policy.current;
  return {
    ...defaults,
    limit: clamp(args.limit ?? defaults.limit, LIMITS.limit) ?? 10,
    mode: args.mode ?? defaults.mode,
    filter: {
      paths: args.path ?? filter.paths,
      types: args.type ?? filter.types,
      languages: args.lang ?? filter.languages,
    },
    expand: args.expand ?? defaults.expand,
    checkFresh: args.checkFresh ?? defaults.checkFresh,
    // `diverse: true` keeps the configured lambda and fetchK.
    diverse: args.diverse === undefined ? defaults.diverse : args.diverse && (diversity ?? true),
    contextChars: clamp(args.contextChars ?? defaults.contextChars, LIMITS.contextChars),
    policy: {
      current,
      // The server's date qualifies its `current`; a call that turns it off asks no date.
      asOf: args.asOf ?? (current ? policy.asOf : undefined),
      status: args.status ?? policy.status,
      conceptTypes: args.conceptType ?? policy.conceptTypes,
      pathPrefixes: args.pathPrefix ?? policy.pathPrefixes,
      governing: args.governing ?? policy.governing,
      expandLinks: args.expandLinks ?? policy.expandLinks,
      // A value from the call is named by its argument; one from the settings, by its origin.
      origins: {
        asOf: args.asOf === undefined ? policy.origins?.asOf : undefined,
        governing: args.governing === undefined ? policy.origins?.governing : undefined,
      },
    },
  };
}
