import type { Embedder } from "../embed/mod.ts";

/**
 * A query's token count when it is over the model's budget, else null: the
 * rule `search` and `compare-embeddings` share, so a query one refuses the
 * other refuses too.
 */
export async function queryOverBudget(embedder: Embedder, query: string): Promise<number | null> {
  const tokens = await embedder.countTokens(query, "query");
  return tokens > embedder.identity.maxTokens ? tokens : null;
}
