import { WayfinderError } from "../src/error.ts";
import { identityFingerprint } from "../src/embed/mod.ts";
import { embeddingInput } from "../src/pipeline/mod.ts";
import { rerankHits, type SearchHit, searchIndex } from "../src/search/mod.ts";
import type { Config } from "../src/config/mod.ts";
import { assertSameModel, openIndex } from "../src/store/mod.ts";
import type { Hit } from "../src/types.ts";
import { type Command, printJson } from "./_command.ts";
import {
  corpusRoot,
  EMBEDDER_SETTINGS,
  INDEX_SETTINGS,
  indexDirOf,
  openEmbedder,
  openReranker,
} from "./_wiring.ts";

/** `wayfinder search <root> <query>`: rank the indexed passages against a question. */
export const searchCommand: Command = {
  spec: {
    name: "search",
    summary: "Search an indexed source tree in plain language",
    positionals: ["root", "query"],
    settings: [
      ...INDEX_SETTINGS,
      ...EMBEDDER_SETTINGS,
      "limit",
      "minScore",
      "mode",
      "path",
      "type",
      "lang",
      "rerank",
      "reranker",
    ],
  },
  targetPositional: 0,
  async run(config, context) {
    const s = config.settings;
    const root = corpusRoot(config, context);
    const query = config.positionals.slice(1).join(" ").trim();
    if (!query) throw new WayfinderError("usage", "Cannot search: the query is empty");
    const indexDir = indexDirOf(config, context, root);
    const index = await openIndex(indexDir);
    if (!index) {
      throw new WayfinderError(
        "no_index",
        `No index for ${root}; run 'wayfinder index ${root}' first`,
      );
    }
    let queryVector: Float32Array | null = null;
    if (s.mode !== "lexical") {
      const embedder = await openEmbedder(config, context);
      try {
        assertSameModel(
          index.manifest,
          embedder.identity,
          identityFingerprint(embedder.identity),
          root,
        );
        queryVector = await embedder.embedQuery(query);
      } finally {
        await embedder.close();
      }
    }
    const result = searchIndex(index, queryVector, query, {
      limit: Math.max(s.limit, s.rerank ?? 0),
      minScore: s.minScore,
      mode: s.mode,
      filter: { paths: s.path, types: s.type, languages: s.lang },
    });
    if (s.rerank) result.matches = (await rerank(config, query, result.matches)).slice(0, s.limit);
    for (const notice of result.notices) context.stderr(`note: ${notice}\n`);
    if (s.output === "json") {
      printJson(context, { query, matches: result.matches.map(toJson), notices: result.notices });
    } else if (s.output === "jsonl") {
      for (const hit of result.matches) context.stdout(JSON.stringify(toJson(hit)) + "\n");
    } else {
      if (result.matches.length === 0) context.stderr("No matches.\n");
      for (const hit of result.matches) context.stdout(formatHit(hit));
    }
    return 0;
  },
};

/** The top `--rerank` hits reordered by the `--reranker` cross-encoder. */
async function rerank(config: Config, query: string, hits: SearchHit[]): Promise<SearchHit[]> {
  const reranker = await openReranker(config, "--rerank");
  try {
    return await rerankHits(hits, query, reranker, {
      top: config.settings.rerank!,
      text: embeddingInput,
    });
  } finally {
    await reranker.close();
  }
}

function toJson(hit: Hit) {
  const c = hit.chunk;
  return {
    chunk: {
      id: c.id,
      sourcePath: c.sourcePath,
      lineStart: c.lineStart,
      lineEnd: c.lineEnd,
      type: c.type,
      language: c.language,
      symbol: c.symbol ?? null,
      content: c.content,
      metadata: c.metadata,
    },
    similarity: Number(hit.similarity.toFixed(6)),
  };
}

function formatHit(hit: Hit): string {
  const c = hit.chunk;
  const head = `${c.sourcePath}:${c.lineStart}-${c.lineEnd}  ${hit.similarity.toFixed(3)}  ${
    c.symbol ?? c.type
  }`;
  const body = c.content.replace(/\s+$/, "").split("\n").map((line) => `    ${line}`).join("\n");
  return `${head}\n${body}\n\n`;
}
