/**
 * The contract of a cross-encoder: it reads a query and a passage together
 * and scores how well the passage answers the query.
 */

/** A cross-encoder reranking backend. */
export interface Reranker {
  /** Scores each document against the query, in the documents' order; higher is more relevant. */
  rank(query: string, documents: string[]): Promise<number[]>;
  close(): Promise<void>;
}
