import { dataRootFrom } from "./data_root.ts";

/**
 * The data root this process's environment names (see `dataRootFrom`): the
 * one place in src/ that reads the environment, for a library caller who
 * gives no `dataDir`.
 */
export function processDataRoot(): string {
  return dataRootFrom(Deno.env.toObject());
}
