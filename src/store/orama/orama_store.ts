/**
 * A corpus's index as one Orama database file (`orama:PATH`): every chunk a
 * document (full text over content, symbol and path; its vector; type,
 * language and folders to filter on), written with Orama's persistence
 * plugin, so any Orama program can `restore` it. Built and searched through
 * Orama's public API only; the one wayfinder part is the tokenizer, plugged
 * into Orama's tokenizer hook.
 *
 * Each publish writes a whole new database and renames it over the old
 * one: readers see one or the other. Orama holds a database in memory, so
 * a reader keeps the generation it loaded until it is closed.
 */
import { dirname, join, resolve } from "node:path";
import { type AnyOrama, create, getByID, insertMultiple, load, type RawData } from "@orama/orama";
import { persist } from "@orama/plugin-data-persistence";
import { WayfinderError } from "../../error.ts";
import type { Chunk } from "../../types.ts";
import { acquireIndexLock, FORMAT_VERSION, type IndexManifest } from "../mod.ts";
import { _syncDir, _writeSynced } from "../_durable.ts";
import type { Publication, Store, StoreReader, StoreStatus } from "../store.ts";
import {
  type ChunkDocument,
  chunkDocument,
  codeTokenizer,
  MANIFEST_ID,
  oramaSchema,
} from "./orama_schema.ts";
import { documentOf, type Loaded, OramaReader, pendingRows } from "./orama_reader.ts";

/** The document that describes the database rather than a passage. */
interface ManifestDocument {
  id: typeof MANIFEST_ID;
  /** `ORAMA_FORMAT` of the wayfinder that wrote it. */
  format: number;
  generation: string;
  manifest: IndexManifest;
}

/**
 * Version of the database's layout (schema, tokenizer, manifest document),
 * bumped on any change a reader must know of; the local index's
 * `FORMAT_VERSION` is another layout's.
 */
export const ORAMA_FORMAT = 1;

/** Options of an Orama store. */
export interface OramaStoreOptions {
  /**
   * The hash of the text the model read for a chunk, stored with it for
   * `vectorsByInput`, when a publication's `FileChange.inputHashes` does not
   * give it. Without either, `vectorsByInput` finds nothing for the chunk.
   */
  inputHash?: (chunk: Chunk) => string;
}

/** A store kept as one Orama database file. */
export class OramaStore implements Store {
  readonly location: string;
  #loaded: Loaded | null = null;
  #inputHash?: (chunk: Chunk) => string;

  /**
   * @param path The database file (an `orama:` prefix is dropped); it need not exist yet.
   * @param options How a chunk's input hash is computed.
   */
  constructor(path: string, options: OramaStoreOptions = {}) {
    this.location = resolve(path.replace(/^orama:/, ""));
    this.#inputHash = options.inputHash;
  }

  async manifest(): Promise<IndexManifest | null> {
    return (await this.#load())?.manifest ?? null;
  }

  async open(): Promise<StoreReader | null> {
    const loaded = await this.#load();
    return loaded ? new OramaReader(loaded) : null;
  }

  async publish(publication: Publication): Promise<string> {
    const live = publication.fresh ? null : await this.#load();
    const { manifest: input, removed, changed } = publication;
    const dimensions = input.identity.dimensions;
    const leaving = new Set([...removed, ...changed.map((change) => change.path)]);
    const files: IndexManifest["files"] = {};
    const docs: ChunkDocument[] = [];
    for (const [path, record] of Object.entries(live?.manifest.files ?? {})) {
      if (leaving.has(path)) continue;
      files[path] = record;
      for (const id of record.chunkIds) {
        const doc = documentOf(live!.db, id);
        if (!doc) {
          throw new WayfinderError(
            "stale_index",
            `Cannot use Orama index ${this.location}: its manifest lists chunk ${id} of ${path}, which it does not hold`,
          );
        }
        docs.push(doc);
      }
    }
    for (const change of changed) {
      const { path, record, chunks, vectors } = change;
      // Given by the publisher since the draft interface; older callers leave it to `inputHash`.
      const given = (change as { inputHashes?: readonly string[] }).inputHashes;
      files[path] = record;
      chunks.forEach((chunk, i) => {
        const vector = vectors[i] ?? null;
        if (vector && vector.length !== dimensions) {
          throw new WayfinderError(
            "internal",
            `Cannot publish to ${this.location}: a vector of ${chunk.sourcePath} has ${vector.length} dimensions, the model ${dimensions}`,
          );
        }
        docs.push(chunkDocument(chunk, vector, given?.[i] ?? this.#inputHash?.(chunk)));
      });
    }
    const createdAt = input.createdAt ?? new Date().toISOString();
    const generation = `orama-${Date.parse(createdAt)}-${crypto.randomUUID().slice(0, 8)}`;
    const pending = pendingRows(docs);
    const manifest = {
      ...input,
      files,
      formatVersion: FORMAT_VERSION,
      createdAt,
      dimensions,
      chunkCount: docs.length,
      checksums: {},
      // The local index lists its segment folders here; a database file has none.
      segments: [],
    } as IndexManifest;
    delete manifest.pending;
    if (pending.length > 0) manifest.pending = pending;
    const db = newDatabase(dimensions);
    const described: ManifestDocument = {
      id: MANIFEST_ID,
      format: ORAMA_FORMAT,
      generation,
      manifest,
    };
    await insertMultiple(db, [...docs, described] as never[], 1_000);
    let text: string;
    try {
      text = await persist(db, "json") as string;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      // The plugin writes one JSON string, and a JavaScript string has a maximum length.
      throw new WayfinderError(
        "io",
        `Cannot write Orama index ${this.location}: ${docs.length} chunks of ${dimensions} dimensions ` +
          `are too many for one Orama JSON file (${error.message})`,
        { cause: error },
      );
    }
    await this.#write(text);
    return generation;
  }

  /** @throws {WayfinderError} `io` when the file's folder does not exist: it is not created. */
  async lock(): Promise<{ release(): Promise<void> }> {
    const folder = dirname(this.location);
    const isFolder = await Deno.stat(folder).then((s) => s.isDirectory, () => false);
    if (!isFolder) {
      throw new WayfinderError(
        "io",
        `Cannot write Orama index ${this.location}: ${folder} is not a folder`,
      );
    }
    return await acquireIndexLock(lockDirOf(this.location), this.location);
  }

  async status(): Promise<StoreStatus> {
    const loaded = await this.#load();
    if (!loaded) return { generation: null, chunkCount: 0, pending: [] };
    const { generation, manifest, bytes } = loaded;
    return { generation, chunkCount: manifest.chunkCount, pending: manifest.pending ?? [], bytes };
  }

  close(): Promise<void> {
    this.#loaded = null;
    return Promise.resolve();
  }

  /** Writes the database beside its final name, then renames it there. */
  async #write(text: string): Promise<void> {
    const temp = `${this.location}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      await _writeSynced(temp, text);
      await Deno.rename(temp, this.location);
      await _syncDir(dirname(this.location));
    } catch (error) {
      await Deno.remove(temp).catch(() => {});
      throw new WayfinderError(
        "io",
        `Cannot write Orama index ${this.location}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  /** The database in the file now, loaded again only when the file changed; null when absent. */
  async #load(): Promise<Loaded | null> {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(this.location, { read: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return null;
      throw new WayfinderError(
        "io",
        `Cannot read Orama index ${this.location}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    let text: string;
    let stamp: string;
    let bytes: number;
    try {
      const stat = await file.stat();
      stamp = `${stat.ino}:${stat.size}:${stat.mtime?.getTime()}`;
      bytes = stat.size;
      if (this.#loaded?.stamp === stamp) return this.#loaded;
      text = await new Response(file.readable).text();
    } finally {
      try {
        file.close();
      } catch {
        // Already closed by reading its stream to the end.
      }
    }
    this.#loaded = { ...parseDatabase(this.location, text), bytes, stamp };
    return this.#loaded;
  }
}

/** Where the writer lock of a database file lives: a hidden folder beside it. */
function lockDirOf(path: string): string {
  return join(dirname(path), `.${path.split("/").pop()}.wayfinder`);
}

function newDatabase(dimensions: number): AnyOrama {
  return create({
    schema: oramaSchema(dimensions),
    sort: { enabled: false },
    components: { tokenizer: codeTokenizer() },
  });
}

/** A saved database loaded with the code tokenizer, as the persistence plugin's `restore("json")` reads it. */
function parseDatabase(path: string, text: string): Omit<Loaded, "stamp" | "bytes"> {
  const unusable = (reason: string) =>
    new WayfinderError("stale_index", `Cannot use Orama index ${path}: ${reason}`);
  let raw: RawData;
  try {
    raw = JSON.parse(text) as RawData;
  } catch {
    throw unusable("it is not an Orama database saved as JSON");
  }
  // The schema is the saved one: `load` replaces the placeholder's index.
  const db = create({
    schema: { content: "string" },
    sort: { enabled: false },
    components: { tokenizer: codeTokenizer() },
  });
  try {
    load(db, raw);
  } catch (error) {
    throw unusable(`Orama cannot load it (${(error as Error).message})`);
  }
  const described = getByID(db, MANIFEST_ID) as ManifestDocument | undefined;
  if (!described?.manifest) throw unusable("it holds no wayfinder manifest");
  if (described.format !== ORAMA_FORMAT) {
    throw unusable(`written in format ${described.format}, this wayfinder reads ${ORAMA_FORMAT}`);
  }
  return { db, generation: described.generation, manifest: described.manifest };
}
