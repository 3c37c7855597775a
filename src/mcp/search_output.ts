/**
 * The shape of the `search` tool's structured result, `search --output
 * json` (`ResultJson`), as the tool's output schema: a client learns the
 * fields from the tool list, and checks each result against it. Objects stay
 * open to fields added later, so a newer server never fails an older schema.
 */
import { z } from "zod";

const LINE = z.number().int();
const OFFSET = z.number().int();

const SCORES = z.object({
  dense: z.number().optional().describe("Cosine similarity with the query"),
  lexical: z.number().optional().describe("BM25 score"),
  fused: z.number().optional().describe(
    "Fused score (hybrid): rank fusion (at most about 0.033) or, on a source tree, the code ranking's",
  ),
  rerank: z.number().optional().describe("Cross-encoder score"),
}).passthrough();

const CHUNK = z.object({
  id: z.string().describe("Passes to get_chunk"),
  sourcePath: z.string().describe("Relative to the root"),
  lineStart: LINE,
  lineEnd: LINE,
  startOffset: OFFSET,
  endOffset: OFFSET,
  type: z.string(),
  language: z.string(),
  symbol: z.string().nullable(),
  content: z.string(),
  metadata: z.record(z.unknown()),
}).passthrough();

const FOLDED = z.object({
  id: z.string(),
  symbol: z.string().optional(),
  type: z.string(),
  lineStart: LINE,
  lineEnd: LINE,
  score: z.number(),
}).passthrough();

const PARENT = z.object({
  reason: z.enum(["declaration", "enclosing", "file"]),
  symbol: z.string().optional(),
  type: z.string(),
  lineStart: LINE,
  lineEnd: LINE,
  startOffset: OFFSET,
  endOffset: OFFSET,
  content: z.string(),
  matched: z.array(FOLDED).optional().describe("Later hits folded into this context"),
}).passthrough();

const HIT = z.object({
  chunk: CHUNK,
  score: z.number().describe("What the hit was ranked by: scores.rerank, fused, lexical or dense"),
  similarity: z.number().describe("The former name of score"),
  scores: SCORES,
  parent: PARENT.optional().describe("With expand: the class, section or file around the hit"),
}).passthrough();

const CONTEXT_ENTRY = z.object({
  reason: z.enum(["match", "governing", "relationship"]),
  path: z.string(),
  viaPath: z.string().optional(),
  passage: HIT,
}).passthrough();

/** `search`'s output schema. */
export const SEARCH_OUTPUT = z.object({
  query: z.string(),
  matches: z.array(HIT).describe("Best first"),
  context: z.array(CONTEXT_ENTRY).optional().describe(
    "Knowledge bundles: each passage with why it is there, in reading order",
  ),
  contextText: z.string().optional().describe("With contextChars: the prompt-ready context"),
  notices: z.array(z.string()),
}).passthrough();
