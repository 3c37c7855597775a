/** Names of what a generation's writer puts into an index directory. */
import { randomBytes } from "node:crypto";

/** The folder of reader leases inside an index directory. */
export const READERS_DIR = "readers";

/** Generation directory names: `gen-<ms since epoch>-<random hex>`. */
export const GENERATION_NAME = /^gen-\d+-[0-9a-f]+$/;
/** Segment directory names: `seg-<ms since epoch>-<random hex>`. */
export const SEGMENT_NAME = /^seg-\d+-[0-9a-f]+$/;

/** A fresh name for a generation or segment directory. */
export function freshName(kind: "gen" | "seg"): string {
  return `${kind}-${Date.now()}-${randomBytes(4).toString("hex")}`;
}
