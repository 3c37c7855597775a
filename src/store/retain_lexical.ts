/**
 * Keeps an opened index's full-text search usable after its lease is
 * released and its segments collected, for processes that hold an index
 * long: each segment's file is read now, cheaply, and parsed on first use.
 */
import { join } from "node:path";
import { decodeLexical } from "./lexical_format.ts";
import { type LexicalSearch, searchParts } from "./lexical_index.ts";
import type { StoredIndex } from "./open_index.ts";
import { globalRows } from "./read_segments.ts";
import { FILES } from "./write_generation.ts";

/**
 * The same index, its full-text files read into memory.
 * @returns `index` itself when a file cannot be read (its own loader then reports why).
 */
export async function retainLexical(index: StoredIndex): Promise<StoredIndex> {
  const segments = index.segments;
  if (!segments) return index;
  let files: (Uint8Array | null)[] | null = await Promise.all(
    segments.map((segment) =>
      Deno.readFile(join(index.dir, segment.record.name, FILES.lexical)).catch(() => null)
    ),
  );
  if (files.some((bytes) => bytes === null)) return index;
  let search: LexicalSearch | null = null;
  return {
    ...index,
    lexical(query, limit, filter) {
      if (search === null) {
        try {
          search = searchParts(
            segments.map((segment, s) => ({
              data: decodeLexical(files![s]!),
              global: globalRows(segment),
            })),
            index.manifest.chunkCount,
          );
          files = null;
        } catch {
          // Unreadable: the index's own loader words the error.
          return index.lexical(query, limit, filter);
        }
      }
      return search(query, limit, filter);
    },
  };
}
