import { equal } from "node:assert/strict";
import { helpText, parseFlags } from "./parse_flags.ts";

const spec = (positionals: string[]) => ({
  name: "demo",
  summary: "A demo",
  positionals,
  settings: [],
});

Deno.test("helpText() brackets what may be left out: an optional positional and a repeated one", () => {
  const usage = (positionals: string[]) => helpText(spec(positionals)).split("\n")[0];
  equal(usage(["root", "query"]), "Usage: wayfinder demo <root> <query> [flags]");
  equal(usage(["project?"]), "Usage: wayfinder demo [project] [flags]");
  equal(usage(["root..."]), "Usage: wayfinder demo [root...] [flags]");
  // As the usage says: no root at all is accepted.
  equal(parseFlags(spec(["root..."]), []).positionals.length, 0);
});
