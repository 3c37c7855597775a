/**
 * Synthetic symbol queries over the code-search benchmark's checkouts: each
 * type (or, with `--kind functions`, each function) that exactly one file
 * declares is searched by its bare name, and the declaring file is the one
 * relevant answer. Declarations are found by a regular expression per
 * language, apart from the chunker and the ranking stage under test, so a
 * miss shows where the definition boost reads a language wrongly (a C forward
 * declaration `struct X;` taken for the definition, a typedef not taken).
 * Test, spec, example and benchmark files are left out.
 *
 *   deno run -A bench/symbol_queries.ts [FOLDER] [--split dev|held|all] [--repos a,b]
 *     [--kind types|functions] [--per-repo N] [--model STATIC] [--data DIR]
 *
 * Prints each miss (file-level nDCG@10 below 1, with the first three hits) on
 * stdout and a mean per repository and per language on stderr. The default
 * split is the development split: the held-back repositories stay unseen.
 * Without FOLDER (or $WAYFINDER_CODE_SEARCH_BENCH) it says it is skipping.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BUILD_DEFAULTS } from "../src/build_defaults.ts";
import { liveIndex, openCorpus } from "../src/corpus/mod.ts";
import { StaticEmbedder } from "../src/embed/mod.ts";
import { indexSearcher } from "../src/search/mod.ts";
import { benchFolder, benchRepos, mean, type Split } from "./_code_search.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    split: { type: "string", default: "dev" },
    repos: { type: "string", default: "" },
    kind: { type: "string", default: "types" },
    "per-repo": { type: "string", default: "20" },
    model: { type: "string", default: "models/embedding.static" },
    data: { type: "string" },
  },
});

/** Per file extension, a declaration whose first group is the declared name. */
const DECLARATIONS: Record<string, [RegExp, RegExp][]> = {
  types: [
    [/\.go$/, /^type\s+([A-Z]\w+)\s+(?:struct|interface)\b/gm],
    [/\.rs$/, /^\s*pub\s+(?:struct|enum|trait)\s+([A-Z]\w+)/gm],
    [
      /\.(ts|tsx|js|mjs)$/,
      /^export\s+(?:default\s+)?(?:abstract\s+)?(?:class|interface|type|enum)\s+([A-Z]\w+)/gm,
    ],
    [/\.py$/, /^class\s+([A-Z]\w+)/gm],
    [
      /\.(java|kt|cs|scala|swift|php)$/,
      /^\s*(?:(?:public|open|final|abstract|sealed|data|internal)\s+)*(?:class|interface|struct|enum|trait|object|protocol)\s+([A-Z]\w+)/gm,
    ],
    [/\.rb$/, /^\s*class\s+([A-Z]\w+)/gm],
    [/\.(c|h|cc|cpp|hpp)$/, /^(?:class|struct)\s+(?:[A-Z_]+\s+)?([A-Za-z]\w+)\s*(?::|\{|final)/gm],
  ],
  functions: [
    [/\.go$/, /^func\s+(?:\([^)]*\)\s*)?([A-Za-z]\w{3,})\s*[[(]/gm],
    [/\.rs$/, /^\s*pub(?:\([^)]*\))?\s+(?:(?:async|const|unsafe)\s+)*fn\s+(\w{4,})/gm],
    [/\.py$/, /^(?:async\s+)?def\s+([a-z]\w{3,})/gm],
    [
      /\.(ts|tsx|js|mjs)$/,
      /^export\s+(?:default\s+)?(?:async\s+)?(?:function\*?\s+|const\s+)([A-Za-z]\w{3,})/gm,
    ],
    [/\.rb$/, /^\s*def\s+(?:self\.)?([a-z]\w{3,}[?!]?)/gm],
  ],
};

const folder = benchFolder(positionals[0], "symbol queries");
const rules = DECLARATIONS[values.kind];
if (!rules) throw new Error(`--kind is types or functions, got '${values.kind}'`);
const perRepo = Number(values["per-repo"]);
const { repos } = await benchRepos(
  folder,
  values.split as Split,
  values.repos.split(",").filter(Boolean),
);
const embedder = await StaticEmbedder.open({ modelPath: values.model });
const dataDir = values.data ?? join(folder, ".wayfinder-data");

/** Names declared in exactly one file, as name → file, in name order. */
function declaredOnce(root: string, files: string[]): [string, string][] {
  const where = new Map<string, Set<string>>();
  for (const file of files) {
    const rule = rules!.find(([extension]) => extension.test(file));
    if (!rule || /test|spec|example|bench/i.test(file)) continue;
    let text: string;
    try {
      text = readFileSync(join(root, file), "utf8");
    } catch {
      continue;
    }
    for (const [, name] of text.matchAll(rule[1])) {
      if (name!.length < 3) continue;
      where.set(name!, (where.get(name!) ?? new Set()).add(file));
    }
  }
  return [...where.entries()]
    .filter(([, files]) => files.size === 1)
    .map(([name, files]): [string, string] => [name, [...files][0]!])
    .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}

const byLanguage = new Map<string, number[]>();
const all: number[] = [];
try {
  for (const repo of repos) {
    const corpus = await openCorpus(repo.root, {
      dataDir,
      embedder,
      maxChunkChars: BUILD_DEFAULTS.maxChunkChars,
    });
    try {
      await corpus.index();
      const index = await liveIndex(corpus);
      const declared = declaredOnce(repo.root, [...new Set(index.chunks.map((c) => c.sourcePath))]);
      // Every k-th name, so the sample spreads over the alphabet.
      const step = Math.max(1, Math.floor(declared.length / perRepo));
      const sample = declared.filter((_, i) => i % step === 0).slice(0, perRepo);
      const searcher = indexSearcher(index, {
        mode: "hybrid",
        fusion: "adaptive",
        ranking: true,
        embedQuery: (query) => embedder.embedQuery(query),
      });
      const scores: number[] = [];
      for (const [name, file] of sample) {
        const { matches } = await searcher.search({ query: name, limit: 10 });
        const at = matches.findIndex((hit) => hit.chunk.sourcePath === file);
        const score = at < 0 ? 0 : 1 / Math.log2(at + 2);
        scores.push(score);
        if (score < 1) {
          const first = matches.slice(0, 3).map((hit) =>
            `${hit.chunk.sourcePath}:${hit.chunk.lineStart} ${hit.chunk.symbol ?? ""}`.trim()
          );
          console.log(
            `[${repo.spec.name}] ${score.toFixed(2)} ${name}: ${file}; got ${first.join(" | ")}`,
          );
        }
      }
      if (scores.length === 0) continue;
      console.error(
        `${repo.spec.name} (${repo.spec.language}): ${scores.length} queries, ${
          mean(scores).toFixed(3)
        }`,
      );
      byLanguage.set(repo.spec.language, [
        ...(byLanguage.get(repo.spec.language) ?? []),
        mean(scores),
      ]);
      all.push(...scores);
    } finally {
      await corpus.close();
    }
  }
} finally {
  await embedder.close();
}
const languages = [...byLanguage].map(([language, means]) =>
  `${language} ${mean(means).toFixed(3)}`
);
console.error(`all: ${all.length} queries, ${mean(all).toFixed(3)}; ${languages.join(", ")}`);
