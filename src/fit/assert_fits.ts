import { WayfinderError } from "../error.ts";

/** A chunk whose body cannot fit: even its smallest piece, without context, is over budget. */
export interface UnfitPassage {
  /** The passage's chunk id. */
  chunkId: string;
  /** The file it comes from, relative to the root. */
  sourcePath: string;
  /** Its first line, 1-based. */
  lineStart: number;
  /** Its last line, inclusive. */
  lineEnd: number;
  /** Tokens of the smallest piece that did not fit (one code point and the special tokens). */
  tokens: number;
}

/** How many offenders the error message names before summarising the rest. */
const LISTED = 10;

/**
 * Throws when some passage cannot fit the budget even cut between code
 * points, naming each place once; the caller decides whether that is an error
 * (`--long-input reject`) or a passage to embed from its first tokens.
 * The error's fix says to leave such passages out or cut them.
 */
export function assertFits(
  unfit: readonly UnfitPassage[],
  maxTokens: number,
): void {
  if (unfit.length === 0) return;
  const byPlace = new Map<string, number>();
  for (const passage of unfit) {
    const place = `${passage.sourcePath}:${passage.lineStart}-${passage.lineEnd}`;
    byPlace.set(place, Math.max(byPlace.get(place) ?? 0, passage.tokens));
  }
  const places = [...byPlace];
  const listed = places.slice(0, LISTED).map(([place, tokens]) =>
    `${place} (a piece needs ${tokens} tokens)`
  );
  if (places.length > LISTED) listed.push(`and ${places.length - LISTED} more places`);
  const noun = unfit.length === 1 ? "passage" : "passages";
  throw new WayfinderError(
    "long_input",
    `Cannot embed ${unfit.length} ${noun} within ${maxTokens} tokens, even one character at a time: ${
      listed.join(", ")
    }`,
    { fix: { kind: "unfit_passages" } },
  );
}
