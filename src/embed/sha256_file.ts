import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** SHA-256 of a file's bytes, read as a stream so large models stay out of memory. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Uint8Array);
  return hash.digest("hex");
}
