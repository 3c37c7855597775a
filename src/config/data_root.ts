import { join, resolve } from "node:path";

/** The environment variables that decide where wayfinder keeps its data. */
export interface DataEnv {
  WAYFINDER_DATA_DIR?: string;
  XDG_DATA_HOME?: string;
  HOME?: string;
}

/**
 * Where wayfinder keeps indexes and caches: `$WAYFINDER_DATA_DIR`, else
 * `$XDG_DATA_HOME/wayfinder`, else `~/.local/share/wayfinder`. Empty
 * variables count as unset.
 */
export function dataRootFrom(env: DataEnv): string {
  if (env.WAYFINDER_DATA_DIR) return resolve(env.WAYFINDER_DATA_DIR);
  if (env.XDG_DATA_HOME) return join(resolve(env.XDG_DATA_HOME), "wayfinder");
  return join(env.HOME ?? ".", ".local", "share", "wayfinder");
}
