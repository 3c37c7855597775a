import { createHash } from "node:crypto";
import type { ModelIdentity } from "./embedder.ts";

/**
 * SHA-256 of the identity as JSON with sorted keys, so the same identity
 * always gives the same fingerprint whatever order its fields were set in.
 */
export function identityFingerprint(identity: ModelIdentity): string {
  const record = identity as unknown as Record<string, unknown>;
  const canonical = Object.keys(record).sort().map((key) =>
    `${JSON.stringify(key)}:${JSON.stringify(record[key])}`
  );
  return createHash("sha256").update(`{${canonical.join(",")}}`).digest("hex");
}
