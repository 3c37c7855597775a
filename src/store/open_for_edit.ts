import { openIndex, type StoredIndex, UnusableIndexError } from "./open_index.ts";
import { verifyGeneration } from "./verify_generation.ts";

/**
 * Opens the live generation for a writer that edits it: leased, its vectors
 * left on disk (read per row with `vectorAt`), its data files hashed only
 * where their stat moved since they were known intact (as `status` checks),
 * so an edit costs what it changes, not what the index holds.
 *
 * @throws {UnusableIndexError} When the generation is damaged or of another format.
 */
export async function openForEdit(indexDir: string, root?: string): Promise<StoredIndex | null> {
  const index = await openIndex(indexDir, { root, vectors: "lazy", verifyChecksums: false });
  const damage = index && await verifyGeneration(indexDir, index.generation, index.manifest);
  if (damage) {
    await index.close?.();
    throw new UnusableIndexError(indexDir, damage, root ?? index.manifest.root);
  }
  return index;
}
