import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { stringify } from "yaml";
import { findLinks, resolveLink } from "./find_links.ts";
import { generateIndexes, linkPath } from "./generate_indexes.ts";
import { applyIndexFixes, planIndexFixes } from "./fix_indexes.ts";
import { loadBundle } from "./load_bundle.ts";
import { validateBundle } from "./validate_bundle.ts";

const PEER = fileURLToPath(new URL("../../../fixtures/okf/peer/examples/", import.meta.url));

Deno.test("generateIndexes() reproduces the peer's generated indexes byte for byte", () => {
  for (const name of ["bitwild", "acme-notes"]) {
    const root = join(PEER, name, "knowledge");
    const generated = generateIndexes(loadBundle(root));
    assert.ok(generated.length >= 2, name);
    for (const index of generated) {
      assert.equal(index.content, readFileSync(join(root, index.path), "utf8"), index.path);
    }
  }
});

Deno.test("generateIndexes() groups by type, sorts by title, describes subdirectories", async () => {
  const dir = await Deno.makeTempDir();
  const concept = (path: string, fm: Record<string, string>) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), `---\n${stringify(fm)}---\n`);
  };
  concept("b/zeta.md", { type: "Metric", title: "zeta", description: "Last." });
  concept("b/alpha.md", { type: "Metric", title: "Alpha", description: "First.\nTwo lines." });
  concept("b/guide (old).md", { type: "Guide", title: "Old [draft]" });
  concept("top.md", { type: "Guide" });
  writeFileSync(join(dir, "b", "asset.json"), "{}");
  mkdirSync(join(dir, "assets-only"));
  writeFileSync(join(dir, "assets-only", "a.png"), "");
  const byPath = new Map(generateIndexes(loadBundle(dir)).map((g) => [g.path, g.content]));
  assert.deepEqual([...byPath.keys()].sort(), ["b/index.md", "index.md"]);
  assert.equal(
    byPath.get("b/index.md"),
    "# Guide\n\n* [Old \\[draft\\]](guide%20%28old%29.md)\n\n" +
      "# Metric\n\n* [Alpha](alpha.md) - First. Two lines.\n* [zeta](zeta.md) - Last.\n",
  );
  assert.equal(
    byPath.get("index.md"),
    "# Guide\n\n* [top](top.md)\n\n# Subdirectories\n\n" +
      "* [b](b/index.md) - Contains 3 entries: Old [draft], Alpha, zeta.\n",
  );
});

const name = fc.stringMatching(/^[a-z0-9][a-z0-9 ()_-]{0,8}$/).filter((n) =>
  !["index", "log"].includes(n)
);
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.constant(undefined));
const conceptArb = fc.record({
  dir: fc.constantFrom("", "a", "a/b", "c", "c/d/e"),
  name,
  type: fc.oneof(fc.constantFrom("Guide", "Metric", "Other Thing"), fc.string({ maxLength: 10 })),
  title: text,
  description: text,
});

Deno.test("validate --fix is idempotent: a second run plans nothing, and its indexes conform", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(conceptArb, { minLength: 1, maxLength: 12 }), async (concepts) => {
      const dir = await Deno.makeTempDir();
      writeFileSync(join(dir, "index.md"), '---\nokf_version: "0.2"\n---\n\n# Stale\n');
      for (const c of concepts) {
        mkdirSync(join(dir, c.dir), { recursive: true });
        const fm = Object.fromEntries(
          Object.entries({ type: c.type, title: c.title, description: c.description })
            .filter(([, v]) => v !== undefined),
        );
        writeFileSync(join(dir, c.dir, `${c.name}.md`), `---\n${stringify(fm)}---\nBody\n`);
      }
      const first = planIndexFixes(dir);
      applyIndexFixes(first.root, first.changes);
      assert.deepEqual(planIndexFixes(dir).changes, []);
      const report = await validateBundle(dir);
      const indexProblems = report.findings.filter((f) => f.id.startsWith("okf/index"));
      assert.deepEqual(indexProblems, []);
      assert.match(
        readFileSync(join(dir, "index.md"), "utf8"),
        /^---\nokf_version: "0.2"\n---\n\n# /,
      );
      await Deno.remove(dir, { recursive: true });
    }),
    { numRuns: 40 },
  );
});

Deno.test("linkPath() and resolveLink() round-trip every file name through an index entry", () => {
  const fileName = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 })
    .filter((n) => !n.includes("/") && !n.includes("\0") && n !== "." && n !== "..");
  fc.assert(
    fc.property(fileName, fc.constantFrom("", "area/", "a b/c#d/"), (name, dir) => {
      const line = `* [Title](${linkPath(name)}) - description`;
      const links = findLinks(line, 1);
      assert.equal(links.length, 1, line);
      assert.equal(links[0]!.target, linkPath(name));
      assert.equal(resolveLink(links[0]!.target, `${dir}index.md`), `${dir}${name}`, line);
    }),
    { numRuns: 500 },
  );
  assert.equal(linkPath("a#b (1) 100%.md"), "a%23b%20%281%29%20100%25.md");
});

Deno.test("--fix links names with #, %, spaces and parentheses so validate finds every target", async () => {
  const dir = await Deno.makeTempDir();
  const names = ["a#b.md", "a%20b.md", "x (1).md", "c:d.md", "q?.md", "é ü.md"];
  mkdirSync(join(dir, "f#g %h"));
  for (const n of names) writeFileSync(join(dir, "f#g %h", n), `---\ntype: Guide\n---\n`);
  const plan = planIndexFixes(dir);
  applyIndexFixes(plan.root, plan.changes);
  assert.match(readFileSync(join(dir, "index.md"), "utf8"), /\(f%23g%20%25h\/index\.md\)/);
  const report = await validateBundle(dir);
  assert.deepEqual(report.findings, []);
  assert.deepEqual(planIndexFixes(dir).changes, []);
});

Deno.test("--fix never writes through a symlinked index.md, inside the bundle or out of it", async () => {
  const dir = await Deno.makeTempDir();
  const bundle = join(dir, "kb");
  for (const sub of ["in", "out"]) {
    mkdirSync(join(bundle, sub), { recursive: true });
    writeFileSync(join(bundle, sub, "note.md"), `---\ntype: Note\ntitle: N\n---\n`);
  }
  writeFileSync(join(dir, "outside.md"), "precious\n");
  writeFileSync(join(bundle, "target.md"), "---\ntype: Note\ntitle: T\n---\n");
  symlinkSync(join(dir, "outside.md"), join(bundle, "out", "index.md"));
  symlinkSync("../target.md", join(bundle, "in", "index.md"));
  const plan = planIndexFixes(bundle);
  assert.deepEqual(plan.leftAlone.map((l) => l.path), ["in/index.md", "out/index.md"]);
  assert.match(plan.leftAlone[0]!.reason, /symlink/);
  // A link out of the bundle is no file of it, as `index` treats links.
  assert.ok(!loadBundle(bundle).files.includes("out/index.md"));
  assert.ok(loadBundle(bundle).files.includes("in/index.md"));
  applyIndexFixes(plan.root, plan.changes);
  assert.equal(readFileSync(join(dir, "outside.md"), "utf8"), "precious\n");
  assert.equal(readFileSync(join(bundle, "target.md"), "utf8"), "---\ntype: Note\ntitle: T\n---\n");
  // A link that appears between planning and writing is refused, not followed.
  rmSync(join(bundle, "index.md"));
  const later = planIndexFixes(bundle);
  symlinkSync(join(dir, "outside.md"), join(bundle, "index.md"));
  assert.throws(
    () => applyIndexFixes(later.root, later.changes),
    /Cannot write 'index\.md': it is a symlink/,
  );
  assert.equal(readFileSync(join(dir, "outside.md"), "utf8"), "precious\n");
});
