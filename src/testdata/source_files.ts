/**
 * Source files for the tests in src/, as the walk hands them to the
 * chunkers: from text written in the test, or from a file in the repository.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { SourceFile } from "../types.ts";

/** The repository's fixtures folder. */
export const FIXTURES: URL = new URL("../../fixtures/", import.meta.url);

/** The repository's top folder. */
export const REPO: URL = new URL("../../", import.meta.url);

/** `content` as the file `path` (at `/path`). */
export function fromText(path: string, content: string): SourceFile {
  const bytes = new TextEncoder().encode(content).length;
  return { path, absolutePath: `/${path}`, content, bytes };
}

/** The file at `url` (a URL or an absolute path), known by the root-relative `path`. */
export async function fromFile(url: URL | string, path: string): Promise<SourceFile> {
  const content = await readFile(url, "utf8");
  const absolutePath = url instanceof URL ? fileURLToPath(url) : url;
  return { ...fromText(path, content), absolutePath };
}
