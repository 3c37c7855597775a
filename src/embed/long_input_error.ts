import { WayfinderError } from "../error.ts";

/** An input over the token budget: its position in the batch and its size. */
export interface LongInput {
  index: number;
  tokens: number;
}

/** How many offenders the message names before summarising the rest. */
const LISTED = 10;

/**
 * Thrown under the "reject" policy; `offenders` lets the caller name the
 * chunks behind the indexes.
 */
export class LongInputError extends WayfinderError {
  readonly offenders: readonly LongInput[];
  readonly maxTokens: number;

  constructor(offenders: LongInput[], maxTokens: number) {
    const listed = offenders.slice(0, LISTED).map((o) => `#${o.index} (${o.tokens} tokens)`);
    if (offenders.length > LISTED) listed.push(`and ${offenders.length - LISTED} more`);
    const noun = offenders.length === 1 ? "input" : "inputs";
    super(
      "long_input",
      `Cannot embed ${offenders.length} ${noun} longer than ${maxTokens} tokens: ${
        listed.join(", ")
      }`,
    );
    this.name = "LongInputError";
    this.offenders = offenders;
    this.maxTokens = maxTokens;
  }
}
