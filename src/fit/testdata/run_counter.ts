/**
 * A deterministic stand-in for a tokenizer: two special tokens, plus one
 * token per started four code points of each run of non-whitespace. Like a
 * real one, cutting inside a word can cost tokens and whitespace is free.
 */
export function countRuns(text: string): number {
  let tokens = 2;
  for (const run of text.match(/\S+/gu) ?? []) tokens += Math.ceil([...run].length / 4);
  return tokens;
}

/** {@link countRuns} as an async tokenizer that records what it was asked. */
export function runCounter(): { countTokens: (text: string) => Promise<number>; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    countTokens: (text) => {
      seen.push(text);
      return Promise.resolve(countRuns(text));
    },
  };
}
