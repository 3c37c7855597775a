import { realpathSync } from "node:fs";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import { WayfinderError } from "../mod.ts";
import type { ConfiguredCorpus, FileLines } from "../cli/mod.ts";

/** The corpora a server answers for, by root, and the rules for paths inside them. */
export class Roots {
  readonly #corpora: ConfiguredCorpus[];

  constructor(corpora: ConfiguredCorpus[]) {
    if (corpora.length === 0) throw new WayfinderError("usage", "wayfinder mcp needs a root");
    this.#corpora = corpora;
  }

  get all(): readonly ConfiguredCorpus[] {
    return this.#corpora;
  }

  /** How a tool call can name `corpus` shortest: its folder name, unless another root shares it. */
  nameOf(corpus: ConfiguredCorpus): string {
    const name = basename(corpus.root);
    const shared = this.#corpora.some((c) => c !== corpus && basename(c.root) === name);
    return shared ? corpus.root : name;
  }

  /** The corpus a tool call names (its root path or folder name), else the first. */
  pick(root?: string): ConfiguredCorpus {
    if (root === undefined || root === "") return this.#corpora[0];
    const known = this.#corpora.map((c) => c.root).join(", ");
    const exact = this.#corpora.find((c) => c.root === resolve(root));
    if (exact) return exact;
    const named = this.#corpora.filter((c) => basename(c.root) === root);
    if (named.length > 1) {
      throw new WayfinderError(
        "usage",
        `'${root}' names more than one served root; give its path: ${
          named.map((c) => c.root).join(", ")
        }`,
      );
    }
    if (named.length === 0) {
      throw new WayfinderError("usage", `'${root}' is not a served root; roots: ${known}`);
    }
    return named[0]!;
  }

  /**
   * The corpus holding `path` (relative to a root, or absolute) and the
   * path relative to it. Links are resolved first, so nothing outside the
   * roots is reachable through one.
   */
  locate(
    path: string,
    root?: string,
    options: { directory?: boolean } = {},
  ): { corpus: ConfiguredCorpus; relativePath: string } {
    const candidates = isAbsolute(path) ? this.#corpora : [this.pick(root)];
    for (const corpus of candidates) {
      let real: string;
      try {
        real = realpathSync(resolve(corpus.root, path));
      } catch {
        continue;
      }
      const inside = relativeInside(realpathSync(corpus.root), real);
      if (inside !== null && (inside !== "" || options.directory)) {
        return { corpus, relativePath: inside };
      }
    }
    const what = options.directory ? "a folder" : "a file";
    throw new WayfinderError("usage", `'${path}' is not ${what} inside a served root`);
  }

  /**
   * `locate` for a file the live index of its root holds, with its lines as
   * it reads now and whether it changed since it was indexed. A file the
   * walker skips (git-ignored, excluded, too large) stays out of reach, like
   * one outside the roots: an agent reads only what search could show it.
   * @throws {WayfinderError} "usage" for a path outside the roots, one the
   *   index does not hold, or one it holds that is gone from the tree.
   */
  async locateIndexed(
    path: string,
    root?: string,
  ): Promise<{ corpus: ConfiguredCorpus; file: FileLines }> {
    let found;
    try {
      found = this.locate(path, root);
    } catch (error) {
      throw await this.#goneSinceIndexed(path, root) ?? error;
    }
    const file = await found.corpus.readLines(found.relativePath);
    if (!file) {
      throw new WayfinderError(
        "usage",
        `'${path}' is not a file the index of ${found.corpus.root} holds (ignored, excluded or not indexed yet)`,
      );
    }
    return { corpus: found.corpus, file };
  }

  /**
   * The error for a path that cannot be found now but that a root's index
   * holds: deleted or moved since that root was indexed. Null otherwise.
   * Only the index is consulted, so nothing outside the roots is touched.
   */
  async #goneSinceIndexed(path: string, root?: string): Promise<WayfinderError | null> {
    const candidates = isAbsolute(path) ? this.#corpora : [this.pick(root)];
    for (const corpus of candidates) {
      const inside = relativeInside(corpus.root, resolve(corpus.root, path));
      if (!inside) continue;
      const there = await Deno.lstat(resolve(corpus.root, inside)).then(() => true, () => false);
      if (there) continue;
      // The index holds a file that cannot be read now when reading it fails with "io".
      const held = await corpus.readLines(inside).then(
        () => false,
        (error) => error instanceof WayfinderError && error.code === "io",
      );
      if (held) {
        return new WayfinderError(
          "usage",
          `'${path}' was indexed but no longer exists; the index is behind the tree ` +
            "(call the index tool to bring it up to date)",
        );
      }
    }
    return null;
  }
}

/**
 * `path` relative to `root` with `/` separators ("" for the root itself), or
 * null when it lies outside. `..notes.txt` is a file inside; `..` and `../x` are outside.
 */
function relativeInside(root: string, path: string): string | null {
  const inside = relative(root, path);
  const within = inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
  return within ? inside.split(sep).join("/") : null;
}
