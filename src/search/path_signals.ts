/**
 * What a file's path says about it for a query: the priors that lower
 * tests, examples, shims, stubs, prose and data unless the query asks for
 * them, and how far the file's name and folder hold the query's words.
 */

// Path priors, multiplicative. A test is the strongest decoy: it names
// everything it tests.
const TEST_PRIOR = 0.3;
const EXAMPLE_PRIOR = 0.3;
const COMPAT_PRIOR = 0.3;
const STUB_PRIOR = 0.7;
const BARREL_PRIOR = 0.5;
const PROSE_PRIOR = 0.5;
// Data and generated files (`commands/set.json`, `commands.def`) repeat a command's words
// without implementing it.
const DATA_PRIOR = 0.5;

const TEST_FILE =
  /(?:^|\/)(?:test_[^/]*|[^/]*_test|[^/]*[._-](?:test|spec|bench|benchmark)|[^/]*(?:Tests?|Spec|Suite)|[^/]+Benchmarks?|test_helpers?[^/]*|conftest)\.[^/.]+$/;
const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|spec|specs|testing|testdata|benches|benchmarks?)\//i;
const EXAMPLE_DIR = /(?:^|\/)(?:_?examples?|samples?|docs?_src)\//i;
const COMPAT_DIR = /(?:^|\/)(?:compat|_compat|legacy|vendor|third_party|single_include)\//i;
const STUB_FILE = /\.d\.[cm]?ts$/;
const BARREL_FILE = /(?:^|\/)(?:__init__\.py|package-info\.java)$/;
const PROSE_FILE = /\.(?:md|markdown|mdx|rst|txt|adoc)$/i;
const DATA_FILE =
  /\.(?:json|jsonc|ya?ml|toml|xml|def|csv|tsv|lock|ini|cfg|conf|properties|plist)$/i;
const ASKS_FOR_DATA =
  /\b(?:json|ya?ml|toml|xml|csv|config|configuration|settings|schema|manifest|package|dependenc(?:y|ies))\b/i;
const ASKS_FOR_TESTS = /\b(?:tests?|testing|spec|specs|fixtures?|mocks?|bench(?:mark)?s?)\b/i;
const ASKS_FOR_EXAMPLES = /\b(?:examples?|samples?|demo)\b/i;
const ASKS_FOR_PROSE = /\b(?:docs?|documentation|readme|guide|changelog|tutorial)\b/i;

/** The prior of one path for this query: 1, or lower for paths a code search rarely wants. */
export function pathPrior(path: string, query: string, prose = true): number {
  let prior = 1;
  if ((TEST_FILE.test(path) || TEST_DIR.test(path)) && !ASKS_FOR_TESTS.test(query)) {
    prior *= TEST_PRIOR;
  }
  if (EXAMPLE_DIR.test(path) && !ASKS_FOR_EXAMPLES.test(query)) prior *= EXAMPLE_PRIOR;
  if (COMPAT_DIR.test(path)) prior *= COMPAT_PRIOR;
  if (STUB_FILE.test(path)) prior *= STUB_PRIOR;
  if (BARREL_FILE.test(path)) prior *= BARREL_PRIOR;
  if (prose && PROSE_FILE.test(path) && !ASKS_FOR_PROSE.test(query)) prior *= PROSE_PRIOR;
  if (DATA_FILE.test(path) && !ASKS_FOR_DATA.test(query)) prior *= DATA_PRIOR;
  return prior;
}

/** The file name without folder and its extension, lower case, `_` and `-` dropped. */
export function stemOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  // Up to the last dot: `JsonTextWriter.Async.cs` holds a part of the class, not the class.
  const dot = name.lastIndexOf(".");
  return (dot > 0 ? name.slice(0, dot) : name).toLowerCase().replace(/[_-]/g, "");
}

/** Query words too common to name a file. */
const PATH_STOPWORDS = new Set(
  ("the and for with from how does are what when where which who why into this that its " +
    "not can use used using via all any get set new").split(" "),
);

/** Lower-case word parts of an identifier or file name: `procedureBuilder` → procedure, builder. */
function words(text: string): string[] {
  return (text.match(/[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g) ?? [])
    .map((w) => w.toLowerCase());
}

/** The query's content words, for matching file names. */
export function queryWords(query: string): string[] {
  return [...new Set(words(query).filter((w) => w.length > 2 && !PATH_STOPWORDS.has(w)))];
}

/**
 * Whether two words are one (`route`/`routes`/`routing`, `utility`/`utils`): equal, one a
 * ≥ 4-letter prefix of the other, or equal once a common ending is dropped from each.
 */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 4 && long.startsWith(short.replace(/e$/, ""))) return true;
  return stemOfWord(a) === stemOfWord(b);
}

/** Endings a light stemmer drops, so `utility` and `utils`, `parsing` and `parser` meet. */
const ENDING = /(?:ities|ity|ies|ions|ion|ers|er|ing|ed|es|s)$/;

/** A word without its ending, when at least four letters remain (else the word itself). */
function stemOfWord(word: string): string {
  const stem = word.replace(ENDING, "");
  return stem.length >= 4 ? stem : word;
}

/** Fraction of the query's words found in the file's name and its folder's name. */
export function pathMatchRatio(path: string, keywords: string[]): number {
  const parts = path.split("/");
  const name = parts.pop()!;
  const stem = name.includes(".") ? name.slice(0, name.indexOf(".")) : name;
  const own = [...words(stem), ...words(parts.pop() ?? "")];
  const found = keywords.filter((k) => own.some((w) => sameWord(k, w)));
  return found.length / keywords.length;
}

/** Whether a path is prose (Markdown, reST, text), whose sections are judged one by one. */
export function isProse(path: string): boolean {
  return PROSE_FILE.test(path);
}
