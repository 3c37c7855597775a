import { deepEqual, equal } from "node:assert/strict";
import type { Chunk, RowColumn } from "../types.ts";
import { keptRows, matchFilter, noMatchNotice, type SearchFilter } from "./match_filter.ts";
import { chunk } from "./testdata/index.ts";

/** A dictionary column over `chunks`' values of `key`. */
function column(chunks: Chunk[], key: "sourcePath" | "type" | "language"): RowColumn {
  const values = [...new Set(chunks.map((c) => c[key]))];
  return { values, ids: Uint32Array.from(chunks, (c) => values.indexOf(c[key])) };
}

Deno.test("keptRows() agrees with and without columns, and runs accept only on what they keep", () => {
  const chunks = [
    chunk("a", "src/auth/login.ts"),
    chunk("b", "docs/guide.md", "heading", "markdown"),
    chunk("c", "src/auth/user.ts", "class"),
    chunk("d", "lib/auth.dart", "method", "dart"),
    chunk("e", "src/authz.ts"),
  ];
  const columns = {
    sourcePath: column(chunks, "sourcePath"),
    type: column(chunks, "type"),
    language: column(chunks, "language"),
  };
  const filters: SearchFilter[] = [
    { paths: ["src/auth"] },
    { paths: ["*.md", "lib/**"] },
    { types: ["class", "method"], languages: ["dart"] },
    { paths: ["src/**"], accept: (c) => c.id !== "a" },
    { paths: ["nowhere"] },
    {},
  ];
  for (const filter of filters) {
    const plain = keptRows({ chunks }, filter);
    let accepted = 0;
    const counted = filter.accept &&
      { ...filter, accept: (c: Chunk) => (accepted++, filter.accept!(c)) };
    deepEqual(keptRows({ chunks, columns }, counted || filter), plain, JSON.stringify(filter));
    if (counted) equal(accepted, 3, "accept sees only the rows under src/");
  }
  deepEqual([...keptRows({ chunks, columns }, { paths: ["src/auth"] })], [1, 0, 1, 0, 0]);
});

Deno.test("path globs follow the rules the search help and the MCP path argument state", () => {
  const paths = [
    "README.md",
    "docs/deep/guide.md",
    "src/auth/login.ts",
    "src/auth/deep/token.ts",
    "src/authz.ts",
    ".github/workflows/ci.yml",
  ];
  const kept = (...globs: string[]) => {
    const keep = matchFilter({ paths: globs })!;
    return paths.filter((path) => keep(chunk("x", path)));
  };
  // Without '/': the file name, at any depth.
  deepEqual(kept("*.md"), ["README.md", "docs/deep/guide.md"]);
  // With '/': the whole path from the root.
  deepEqual(kept("src/**/*.ts"), ["src/auth/login.ts", "src/auth/deep/token.ts", "src/authz.ts"]);
  deepEqual(kept("auth/*.ts"), []);
  // No glob characters: the path itself and everything below it, not a longer name.
  deepEqual(kept("src/auth"), ["src/auth/login.ts", "src/auth/deep/token.ts"]);
  deepEqual(kept("./src/authz.ts"), ["src/authz.ts"]);
  // Dotfiles are paths like any other; any one glob is enough.
  deepEqual(kept("**/*.yml", "README.md"), ["README.md", ".github/workflows/ci.yml"]);
});

Deno.test("a language filter takes an extension or a common name for the language's id", () => {
  const chunks = [
    chunk("a", "src/a.ts"),
    chunk("b", "docs/guide.md", "heading", "markdown"),
    chunk("c", "lib/a.cs", "class", "c_sharp"),
  ];
  const kept = (languages: string[]) => chunks.filter(matchFilter({ languages })!).map((c) => c.id);
  deepEqual(kept(["ts"]), ["a"]);
  deepEqual(kept(["TypeScript", "md"]), ["a", "b"]);
  deepEqual(kept(["csharp"]), ["c"]);
  deepEqual(kept(["py"]), []);
  deepEqual([...keptRows({ chunks }, { languages: ["ts"] })], [1, 0, 0]);
});

Deno.test("noMatchNotice() names the languages and types the index holds for the filters given", () => {
  const chunks = [chunk("a", "src/a.ts"), chunk("b", "docs/guide.md", "heading", "markdown")];
  equal(
    noMatchNotice({ chunks }, { languages: ["py"] }),
    "the filters match no chunk in this index (it holds languages: markdown, typescript)",
  );
  equal(
    noMatchNotice({ chunks }, { types: ["methd"], paths: ["src"] }),
    "the filters match no chunk in this index (it holds types: function, heading)",
  );
  equal(noMatchNotice({ chunks }, { paths: ["lib"] }), "the filters match no chunk in this index");
});
