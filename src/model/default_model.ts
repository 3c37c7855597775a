/**
 * The pinned default embedding model, as data. `models/default.json` mirrors
 * it for humans and compiled binaries (a test keeps the two equal).
 */

/** A downloadable GGUF embedding model, pinned by URL, size and SHA-256. */
export interface ModelSpec {
  name: string;
  /** Pinned to a commit so the bytes never change under us. */
  url: string;
  bytes: number;
  /** Lowercase hex. */
  sha256: string;
  dimensions: number;
  maxTokens: number;
  /** "cls" | "mean". */
  pooling: string;
  /** Prepended to queries (not passages), as the model was trained. */
  queryPrefix: string;
  license: string;
}

/** Snowflake Arctic Embed XS, Q8_0 GGUF (25 MB, 384 dimensions, Apache-2.0). */
export const DEFAULT_MODEL: Readonly<ModelSpec> = Object.freeze({
  name: "snowflake-arctic-embed-xs",
  url: "https://huggingface.co/mradermacher/snowflake-arctic-embed-xs-GGUF/resolve/" +
    "143419f28857ed7f3b1afd13713f3b3955231338/snowflake-arctic-embed-xs.Q8_0.gguf",
  bytes: 25279840,
  sha256: "a2fe17db11616959ab2235a7727bc7d080becfe77b6ab16671b25866da8ea582",
  dimensions: 384,
  maxTokens: 512,
  pooling: "cls",
  queryPrefix: "Represent this sentence for searching relevant passages: ",
  license: "Apache-2.0",
});
