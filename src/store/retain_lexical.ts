/**
 * Keeps an opened index's full-text search usable after its generation is
 * collected (two publishes later), for processes that hold an index long:
 * the file's bytes are read now, cheaply, and parsed on first use.
 */
import { join } from "node:path";
import { type LexicalSearch, loadLexical } from "./lexical_index.ts";
import type { StoredIndex } from "./open_index.ts";
import { FILES } from "./write_generation.ts";

/**
 * The same index, its full-text file read into memory.
 * @returns `index` itself when the file cannot be read (its own loader then reports why).
 */
export async function retainLexical(index: StoredIndex): Promise<StoredIndex> {
  let bytes: Uint8Array | null = await Deno.readFile(
    join(index.dir, index.generation, FILES.lexical),
  ).catch(() => null);
  if (bytes === null) return index;
  let search: LexicalSearch | null = null;
  return {
    ...index,
    lexical(query, limit, filter) {
      if (search === null) {
        try {
          search = loadLexical(bytes!);
          bytes = null;
        } catch {
          // Unreadable: the index's own loader words the error.
          return index.lexical(query, limit, filter);
        }
      }
      return search(query, limit, filter);
    },
  };
}
