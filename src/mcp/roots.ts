import { realpathSync } from "node:fs";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import { WayfinderError } from "../error.ts";
import type { Corpus } from "../corpus/mod.ts";

/** The corpora a server answers for, by root, and the rules for paths inside them. */
export class Roots {
  readonly #corpora: Corpus[];

  constructor(corpora: Corpus[]) {
    if (corpora.length === 0) throw new WayfinderError("usage", "wayfinder mcp needs a root");
    this.#corpora = corpora;
  }

  get all(): readonly Corpus[] {
    return this.#corpora;
  }

  /** The corpus a tool call names (its root path or folder name), else the first. */
  pick(root?: string): Corpus {
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
  ): { corpus: Corpus; relativePath: string } {
    const candidates = isAbsolute(path) ? this.#corpora : [this.pick(root)];
    for (const corpus of candidates) {
      let real: string;
      try {
        real = realpathSync(resolve(corpus.root, path));
      } catch {
        continue;
      }
      const inside = relative(realpathSync(corpus.root), real);
      // `..notes.txt` is a file inside; `..` and `../x` are outside.
      const within = inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
      if (within && (inside !== "" || options.directory)) {
        return { corpus, relativePath: inside.split(sep).join("/") };
      }
    }
    const what = options.directory ? "a folder" : "a file";
    throw new WayfinderError("usage", `'${path}' is not ${what} inside a served root`);
  }

  /**
   * `locate` for a file the live index of its root holds. A file the walker
   * skips (git-ignored, excluded, too large) stays out of reach, like one
   * outside the roots: an agent reads only what search could show it.
   */
  async locateIndexed(
    path: string,
    root?: string,
  ): Promise<{ corpus: Corpus; relativePath: string }> {
    const found = this.locate(path, root);
    const { manifest } = await found.corpus.open();
    if (!Object.hasOwn(manifest.files, found.relativePath)) {
      throw new WayfinderError(
        "usage",
        `'${path}' is not a file the index of ${found.corpus.root} holds (ignored, excluded or not indexed yet)`,
      );
    }
    return found;
  }
}
