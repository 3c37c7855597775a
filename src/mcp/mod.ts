/**
 * `wayfinder mcp`: the index as Model Context Protocol tools over stdio.
 * @module
 */
export { createServer, LIMITS, type SearchDefaults, type WayfinderServer } from "./server.ts";
export { Roots } from "./roots.ts";
export { INDEX_ANSWER_MS } from "./index_runs.ts";
