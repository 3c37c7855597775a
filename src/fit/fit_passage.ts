import { WayfinderError } from "../error.ts";
import { lowerBound } from "../sorted_search.ts";
import { type CutLevel, cutPoints, firstInk } from "./cut_points.ts";

/** A passage to embed, and the context its embedding inputs derive from it. */
export interface FitPassage {
  /** The stored passage: its fragments concatenate back to exactly this. */
  text: string;
  /** Derived context before every fragment (a path and symbol line). @default "" */
  context?: string;
  /**
   * Context repeated before each fragment that starts at or after `from`,
   * after `context`: a table's header and delimiter rows (with their line
   * break), so a fragment of rows still says what its columns are.
   */
  header?: { text: string; from: number };
  /** Cut at line breaks before whitespace: tables and code. @default false */
  lines?: boolean;
}

/** The model's budget: its tokenizer and the most tokens one input may have. */
export interface FitBudget {
  /** Tokens allowed per input, special tokens included. */
  maxTokens: number;
  /** Tokens the model sees for an input, special tokens included. */
  countTokens: (input: string) => Promise<number>;
}

/** One embedding input: `text.slice(start, end)` after its context. */
export interface FitFragment {
  /** UTF-16 offsets into the passage, end exclusive. */
  start: number;
  end: number;
  /** Exactly what was counted: context, header, then the fragment. */
  input: string;
  tokens: number;
}

/** How a passage was fitted. */
export interface FittedPassage {
  /** False when even one code point of the body, without context, is over budget. */
  fits: boolean;
  /** Consecutive fragments covering the passage; empty when it does not fit. */
  fragments: FitFragment[];
  /** The context could not fit beside the smallest piece, so every input is the bare fragment. */
  contextOmitted: boolean;
  /** Some cut had to fall inside a run of non-whitespace (between two code points). */
  codePointSplit: boolean;
  /** When it does not fit: where the body got stuck, and the tokens of its smallest piece there. */
  unfit?: { offset: number; tokens: number };
}

type Count = (input: string) => Promise<number>;

/**
 * Fits a passage to the token budget. A passage whose input fits stays
 * whole. Otherwise it is cut into the longest fragments that fit, trying
 * line breaks (when `lines`), then whitespace, then code points, from each
 * fragment's start; every fragment is counted with its context. When not even
 * one code point fits beside the context, the passage is fitted again without
 * it. Concatenating the fragments gives back the passage, and no fragment is
 * blank (a blank passage stays one piece).
 *
 * @throws {WayfinderError} "usage" for a budget that is not a positive
 * integer; "model" when the tokenizer fails or returns something other than
 * a count.
 */
export async function fitPassage(passage: FitPassage, budget: FitBudget): Promise<FittedPassage> {
  const { maxTokens } = budget;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new WayfinderError(
      "usage",
      `Cannot fit inputs: the token budget must be a positive integer, not '${maxTokens}'`,
    );
  }
  const count = checkedCounter(budget.countTokens);
  const header = passage.header;
  const prefixAt = (start: number) =>
    (passage.context ?? "") + (header && start >= header.from ? header.text : "");
  const withContext = await fitWith(passage, prefixAt, count, maxTokens);
  if (withContext.fits || (!passage.context && !header?.text)) return withContext;
  const bodyOnly = await fitWith(passage, () => "", count, maxTokens);
  return bodyOnly.fits ? { ...bodyOnly, contextOmitted: true } : bodyOnly;
}

/** Wraps the tokenizer so that its failures and odd answers are one kind of error. */
function checkedCounter(countTokens: Count): Count {
  return async (input) => {
    let tokens: number;
    try {
      tokens = await countTokens(input);
    } catch (error) {
      if (error instanceof WayfinderError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new WayfinderError("model", `Cannot count tokens: ${reason}`, { cause: error });
    }
    if (!Number.isInteger(tokens) || tokens < 0) {
      throw new WayfinderError("model", `Cannot count tokens: the tokenizer returned '${tokens}'`);
    }
    return tokens;
  };
}

async function fitWith(
  passage: FitPassage,
  prefixAt: (start: number) => string,
  count: Count,
  maxTokens: number,
): Promise<FittedPassage> {
  const { text } = passage;
  const measure = async (start: number, end: number): Promise<FitFragment> => {
    const input = prefixAt(start) + text.slice(start, end);
    return { start, end, input, tokens: await count(input) };
  };
  const whole = await measure(0, text.length);
  const result = { fits: true, fragments: [whole], contextOmitted: false, codePointSplit: false };
  if (whole.tokens <= maxTokens) return result;

  const levels: CutLevel[] = passage.lines ? ["line", "word", "codePoint"] : ["word", "codePoint"];
  const ends = new Map<CutLevel, number[]>();
  const endsAt = (level: CutLevel) => {
    if (!ends.has(level)) ends.set(level, cutPoints(text, level));
    return ends.get(level)!;
  };
  result.fragments = [];
  for (let start = 0; start < text.length;) {
    // A fragment must reach past its first non-whitespace character.
    const ink = firstInk(text, start) + 1;
    let piece: FitFragment | null = null;
    for (const level of levels) {
      const candidates = endsAt(level);
      piece = await longestFitting(
        candidates,
        lowerBound(candidates, ink),
        (end) => measure(start, end),
        maxTokens,
      );
      if (piece) {
        if (level === "codePoint") result.codePointSplit = true;
        break;
      }
    }
    if (!piece) return stuckAt(start, endsAt("codePoint"), ink, text, count);
    result.fragments.push(piece);
    start = piece.end;
  }
  return result;
}

/**
 * The longest piece ending at one of `ends[from..]` that fits: probes at
 * doubling distances, then bisects, so only a few inputs about as long as
 * the answer are counted. Assumes a shorter piece needs no more tokens; a
 * tokenizer that breaks this gets a shorter fragment, never an unchecked one.
 */
async function longestFitting(
  ends: readonly number[],
  from: number,
  measure: (end: number) => Promise<FitFragment>,
  maxTokens: number,
): Promise<FitFragment | null> {
  let best: FitFragment | null = null;
  let lo = from - 1; // the longest end known to fit
  let hi = ends.length; // the shortest end known not to
  for (let step = 1, probe = from; probe < hi; step *= 2) {
    const piece = await measure(ends[probe]!);
    if (piece.tokens > maxTokens) {
      hi = probe;
      break;
    }
    [lo, best] = [probe, piece];
    if (probe === ends.length - 1) break;
    probe = Math.min(from + 2 * step - 1, ends.length - 1);
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const piece = await measure(ends[mid]!);
    if (piece.tokens <= maxTokens) [lo, best] = [mid, piece];
    else hi = mid;
  }
  return best;
}

/** The verdict for a body that cannot fit: its smallest piece at `start`, counted bare. */
async function stuckAt(
  start: number,
  codePoints: readonly number[],
  ink: number,
  text: string,
  count: Count,
): Promise<FittedPassage> {
  const end = codePoints[lowerBound(codePoints, ink)] ?? text.length;
  const tokens = await count(text.slice(start, end));
  return {
    fits: false,
    fragments: [],
    contextOmitted: false,
    codePointSplit: false,
    unfit: { offset: start, tokens },
  };
}
