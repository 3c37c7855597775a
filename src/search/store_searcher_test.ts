import assert from "node:assert/strict";
import type { Chunk } from "../types.ts";
import { LEXICAL_RANKING } from "./code_ranking.ts";
import { searchIndex } from "./search_index.ts";
import { chunk as testChunk, makeIndex } from "./testdata/index.ts";
import { type Candidate, type CandidateSource, storeSearcher } from "./store_searcher.ts";

/** A test chunk with its own text (the shared helper's text is its id). */
const chunk = (id: string, sourcePath: string, content: string): Chunk => ({
  ...testChunk(id, sourcePath),
  endOffset: content.length,
  content,
});

const TOKEN = chunk("token", "src/token.ts", "export function refreshToken() {}");
const SESSION = chunk("session", "src/session.ts", "export function keepSession() {}");
const CACHE = chunk("cache", "src/cache.ts", "export function remember() {}");

/** A store's answers, as PostgreSQL or Orama would give them: each ranking best first. */
const source: CandidateSource = {
  lexical: () =>
    Promise.resolve<Candidate[]>([
      { chunk: TOKEN, score: 9, scores: { lexical: 9 } },
      { chunk: SESSION, score: 3, scores: { lexical: 3 } },
    ]),
  dense: () =>
    Promise.resolve<Candidate[]>([
      { chunk: CACHE, score: 0.8, scores: { dense: 0.8 } },
      { chunk: SESSION, score: 0.7, scores: { dense: 0.7 } },
      { chunk: TOKEN, score: 0.2, scores: { dense: 0.2 } },
    ]),
  hybrid: () =>
    Promise.reject(new Error("ranked fusion asks for the two rankings, not the store's own")),
  // Each file holds one chunk: its mean is that chunk's vector, at the dense ranking's cosine.
  fileVectors: (paths) =>
    Promise.resolve(
      new Map(
        paths.map((path) => {
          const c = { "src/token.ts": 0.2, "src/session.ts": 0.7, "src/cache.ts": 0.8 }[path]!;
          return [path, new Float32Array([c, Math.sqrt(1 - c * c)])];
        }),
      ),
    ),
};

/** A hybrid searcher over `source` that fuses as `fusion` says, with every ranking step. */
const hybrid = (fusion: "ranked" | "early" | "adaptive") =>
  storeSearcher(source, {
    mode: "hybrid",
    fusion,
    ranking: LEXICAL_RANKING,
    embedQuery: () => Promise.resolve(new Float32Array([1, 0])),
  });

Deno.test("storeSearcher fuses a store's two rankings after the ranking stage, lexical leading", async () => {
  const searcher = hybrid("ranked");
  const { matches } = await searcher.search({ query: "refresh token", limit: 5 });
  // Each chunk once; BM25's clear winner first; the dense-only chunk enters behind it.
  assert.deepEqual(matches.map((m) => m.chunk.id), ["token", "session", "cache"]);
  const [token, session] = matches;
  assert.equal(token!.score, token!.scores.fused);
  assert.equal(token!.scores.lexical, 9);
  assert.equal(token!.scores.dense, 0.2);
  assert.equal(session!.scores.dense, 0.7);
  // The dense floor still cuts on cosine, not on the fused score.
  const floored = await searcher.search({ query: "refresh token", limit: 5, minScore: 0.5 });
  assert.deepEqual(floored.matches.map((m) => m.chunk.id), ["session", "cache"]);
});

Deno.test("storeSearcher fuses early as a local index does: raw rankings first, then the stage", async () => {
  const { matches } = await hybrid("early").search({ query: "refresh token", limit: 5 });
  // The same three chunks in a local index: cosines 0.8, 0.7, 0.2 and the same BM25 scores.
  const cosine = (c: number) => [c, Math.sqrt(1 - c * c)];
  const local = makeIndex(
    [TOKEN, SESSION, CACHE],
    [cosine(0.2), cosine(0.7), cosine(0.8)],
    () => [{ index: 0, score: 9 }, { index: 1, score: 3 }],
  );
  const expected = searchIndex(local, new Float32Array([1, 0]), "refresh token", {
    mode: "hybrid",
    fusion: "early",
    ranking: LEXICAL_RANKING,
    limit: 5,
  });
  assert.deepEqual(
    matches.map((m) => [m.chunk.id, m.score.toFixed(5)]),
    expected.matches.map((m) => [m.chunk.id, m.score.toFixed(5)]),
  );
  // Dense weighs more before the stage than after it: the session chunk, second by both
  // rankings, closes on BM25's winner more than ranked fusion lets it.
  const ranked = await hybrid("ranked").search({ query: "refresh token", limit: 5 });
  const gap = (hits: typeof matches) => hits[1]!.score / hits[0]!.score;
  assert.deepEqual(matches.map((m) => m.chunk.id), ["token", "session", "cache"]);
  assert.ok(gap(matches) > gap(ranked.matches), `${gap(matches)} ≤ ${gap(ranked.matches)}`);
});

Deno.test("storeSearcher fuses adaptively: ranked when BM25's best holds every query word, else early", async () => {
  const order = async (fusion: "ranked" | "early" | "adaptive", query: string) =>
    (await hybrid(fusion).search({ query, limit: 5 })).matches.map((
      m,
    ) => [m.chunk.id, m.score.toFixed(6)]);
  // The token chunk, BM25's best, spells `refreshToken`, but not `keep`.
  assert.deepEqual(
    await order("adaptive", "refresh token"),
    await order("ranked", "refresh token"),
  );
  assert.deepEqual(await order("adaptive", "keep token"), await order("early", "keep token"));
  assert.notDeepEqual(await order("ranked", "keep token"), await order("early", "keep token"));
});
