/**
 * The peer's knowledge protocols (okf_retrieval, embedding_comparison) run
 * through the front door in knowledge mode, with the policy each protocol
 * prescribes: current guidance as of its date (history questions excepted),
 * its governing sources, one-hop links, and the caller's path scope. A
 * question is judged on the answer's `context`, in order: an entry supports
 * a support item when its path is the item's and its passage contains the
 * item's fragment. Shared by bench/knowledge_protocols.ts and the suite's gate.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openConfiguredCorpus, type SearchMode } from "../src/cli/mod.ts";
import { writeFiles } from "./_peer_index.ts";
import {
  type QueryOutcome,
  scoreQuery,
  squash,
  summarize,
  type Summary,
  type SupportQuery,
} from "./_peer_score.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/protocols", import.meta.url));

interface Protocol {
  asOf: string;
  limit: number;
  ks: number[];
  governingSources: Record<string, string>;
  queries: SupportQuery[];
}

/** One protocol, split and mode: the summary and each question's outcome. */
export interface KnowledgeRun {
  protocol: string;
  split: string;
  mode: SearchMode;
  summary: Summary;
  outcomes: QueryOutcome[];
}

/** What a run needs: the model, where to work, which protocol, split and modes. */
export interface KnowledgeRunOptions {
  model: string;
  threads: number;
  work: string;
  protocol: "okf_retrieval" | "embedding_comparison";
  splits: string[];
  modes: SearchMode[];
}

async function load(protocol: KnowledgeRunOptions["protocol"], work: string) {
  const dir = join(FIXTURES, protocol);
  const spec = JSON.parse(await Deno.readTextFile(join(dir, "queries.json")));
  if (protocol === "okf_retrieval") {
    const p: Protocol = { ...spec, ks: [3] };
    return { root: join(dir, "bundle"), protocol: p };
  }
  // embedding_comparison ships its concepts as one JSON map; they become a bundle on disk.
  const sources = JSON.parse(await Deno.readTextFile(join(dir, "sources.json")));
  const root = join(work, "embedding_comparison");
  await writeFiles(root, sources);
  return { root, protocol: { ...spec, limit: 10, ks: [3, 10] } as Protocol };
}

/** Indexes the protocol's bundle in knowledge mode and scores each split and mode. */
export async function runKnowledgeProtocol(options: KnowledgeRunOptions): Promise<KnowledgeRun[]> {
  const { root, protocol } = await load(options.protocol, options.work);
  const corpus = await openConfiguredCorpus(root, {
    dataDir: join(options.work, "data"),
    embedder: { model: options.model, threads: options.threads },
    knowledge: true,
  });
  const runs: KnowledgeRun[] = [];
  try {
    await corpus.index();
    for (const split of options.splits) {
      const queries = protocol.queries.filter((q) => q.split === split && q.support.length);
      // A split this protocol does not have (okf_retrieval has no "test") prints no row.
      if (queries.length === 0) continue;
      for (const mode of options.modes) {
        const outcomes: QueryOutcome[] = [];
        for (const q of queries) {
          const answer = await corpus.search(q.query, {
            limit: protocol.limit,
            mode,
            policy: {
              current: !q.history,
              // A date judges only the current view; history questions see every date.
              asOf: q.history ? undefined : protocol.asOf,
              governing: protocol.governingSources,
              expandLinks: true,
              pathPrefixes: q.scope,
            },
          });
          const context = answer.context ?? [];
          const supports = context.map((entry) =>
            q.support.flatMap((s, j) =>
              entry.path === s.path &&
                squash(entry.passage.chunk.content).includes(squash(s.contains))
                ? [j]
                : []
            )
          );
          const top = context.slice(0, 3).map((e) =>
            `${e.reason} ${e.path}:${e.passage.chunk.lineStart}`
          );
          outcomes.push(scoreQuery(q.id, supports, q.support.length, protocol.ks, top, q.group));
        }
        runs.push({
          protocol: options.protocol,
          split,
          mode,
          summary: summarize(outcomes, protocol.ks),
          outcomes,
        });
      }
    }
  } finally {
    await corpus.close();
  }
  return runs;
}

interface GivenChunk {
  id: string;
  sourcePath: string;
  content: string;
  metadata: Record<string, string>;
}

interface KnowledgeCase {
  id: string;
  query: string;
  relevantIds: string[];
  options?: {
    metadataFilters?: { status?: string | string[] };
    filePaths?: string[];
    filePatterns?: string[];
  };
}

/**
 * knowledge_retrieval: the 13 given passages written as one-passage concepts
 * (their metadata as front matter), and 13 cases. A case that selects
 * statuses gets that status filter; every other case the lifecycle policy
 * (current as of the fixture's date). File paths scope the matches; file
 * patterns are path globs. A context entry is relevant when its path is a
 * relevant passage's.
 */
export async function runKnowledgeCases(
  options: Omit<KnowledgeRunOptions, "protocol" | "splits">,
): Promise<KnowledgeRun[]> {
  const spec = JSON.parse(
    await Deno.readTextFile(join(FIXTURES, "knowledge_retrieval", "cases.json")),
  ) as { asOf: string; limit: number; chunks: GivenChunk[]; cases: KnowledgeCase[] };
  const root = join(options.work, "knowledge_retrieval");
  const files: Record<string, string> = {};
  for (const c of spec.chunks) {
    const fields = Object.entries(c.metadata).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
    files[c.sourcePath] = c.sourcePath.endsWith(".md")
      ? `---\ntype: Guideline\n${fields.join("\n")}\n---\n\n${c.content}\n`
      : `// ${c.content}\n`;
  }
  await writeFiles(root, files);
  const pathOf = new Map(spec.chunks.map((c) => [c.id, c.sourcePath]));
  const corpus = await openConfiguredCorpus(root, {
    dataDir: join(options.work, "data-cases"),
    embedder: { model: options.model, threads: options.threads },
    knowledge: true,
  });
  const runs: KnowledgeRun[] = [];
  try {
    await corpus.index();
    for (const mode of options.modes) {
      const outcomes: QueryOutcome[] = [];
      for (const kase of spec.cases.filter((k) => k.relevantIds.length)) {
        const status = kase.options?.metadataFilters?.status;
        const answer = await corpus.search(kase.query, {
          limit: spec.limit,
          mode,
          filter: { paths: kase.options?.filePatterns },
          policy: {
            current: status === undefined,
            asOf: status === undefined ? spec.asOf : undefined,
            status: status === undefined ? undefined : [status].flat(),
            pathPrefixes: kase.options?.filePaths,
          },
        });
        const relevant = new Set(kase.relevantIds.map((id) => pathOf.get(id)));
        const context = answer.context ?? [];
        const supports = context.map((e) => (relevant.has(e.path) ? [0] : []));
        outcomes.push(
          scoreQuery(kase.id, supports, 1, [3], context.slice(0, 3).map((e) => e.path)),
        );
      }
      runs.push({
        protocol: "knowledge_retrieval",
        split: "cases",
        mode,
        summary: summarize(outcomes, [3]),
        outcomes,
      });
    }
  } finally {
    await corpus.close();
  }
  return runs;
}
