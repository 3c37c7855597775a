/** Path helpers shared by src/ and main.ts, on node:path and node:url. */
export { basename, dirname, join, relative, resolve } from "node:path";
export { fileURLToPath as fromFileUrl } from "node:url";
