import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyProfile, type ProfileChain } from "./apply_profile.ts";
import { loadBundle } from "../conformance/mod.ts";
import { type ProfilePackage, readProfilePackage } from "./profile_package.ts";
import { readBinding } from "./read_binding.ts";

const PEER = fileURLToPath(new URL("../../../fixtures/okf/peer/", import.meta.url));

async function bitwildCopy(): Promise<string> {
  const dir = await Deno.makeTempDir();
  await new Deno.Command("cp", { args: ["-R", `${PEER}examples/bitwild/.`, dir] }).output();
  return dir;
}

function bitwildChain(project: string): ProfileChain {
  const bound = readBinding(join(project, "wayfinder.json")).profiles[0]!;
  return { bound, packages: [readProfilePackage(PEER + "profiles/bitwild")] };
}

const summary = (f: { id: string; severity: string; location: { path: string; line: number } }) =>
  `${f.severity} ${f.id} ${f.location.path}:${f.location.line}`;

Deno.test("applyProfile() passes the peer's bitwild bundle with one relationship note", async () => {
  const project = await bitwildCopy();
  const outcome = applyProfile(loadBundle(join(project, "knowledge")), bitwildChain(project));
  assert.deepEqual(outcome.unsupported, []);
  assert.deepEqual(outcome.findings.map(summary), [
    "note bitwild-profile/relationship-unresolved reporting/pdf-export-feasibility.md:12",
  ]);
  assert.equal(
    outcome.findings[0]!.helpUri,
    "https://github.com/btwld/wayfinder/blob/main/profiles/bitwild/README.md#relationship-unresolved",
  );
});

Deno.test("applyProfile() reports vocabulary, status, source and footnote breaches where they are", async () => {
  const project = await bitwildCopy();
  const file = join(project, "knowledge", "reporting", "include-pdf-annotations.md");
  const text = readFileSync(file, "utf8")
    .replace(
      "tags: [reporting, export]",
      "tags: [reporting, export, export, undeclared]\nconfidence: high",
    )
    .replace("status: draft", "status: final")
    .replace("  - id: demo-0730\n", "  - id: demo-0730\n    resource: /a.md\n  - id: demo-0730\n")
    .replace("[^demo-0730]: Reporting demo transcript, 30 July 2026\n", "")
    .replace("author: process:meeting-transcription", "author: agent/unknown");
  writeFileSync(file, text);
  const outcome = applyProfile(loadBundle(join(project, "knowledge")), bitwildChain(project));
  const ids = outcome.findings.filter((f) => f.severity === "error").map((f) => f.id.split("/")[1])
    .sort();
  assert.deepEqual(ids, [
    "configured-tag-duplicate",
    "configured-tag-undeclared",
    "frontmatter-fields-declared",
    "source-attribution-join",
    "source-id-unique",
    "status-value",
    "used-actor-registered",
  ]);
  const status = outcome.findings.find((f) => f.id.endsWith("/status-value"))!;
  assert.equal(status.location.line, 5);
  const tags = outcome.findings.find((f) => f.id.endsWith("/configured-tag-undeclared"))!;
  assert.equal(
    tags.message,
    "Tags must be declared by the selected Profile binding; found undeclared.",
  );
});

Deno.test("applyProfile() accepts project vocabulary from the binding and rejects what nobody declares", async () => {
  const project = await bitwildCopy();
  const file = join(project, "knowledge", "ways-of-working", "relationship-labels.md");
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace("type: Guide", "type: Meeting Transcript"),
  );
  const chain = bitwildChain(project);
  assert.deepEqual(
    applyProfile(loadBundle(join(project, "knowledge")), chain).findings.map((f) => f.id),
    [
      "bitwild-profile/relationship-unresolved",
      // The folder's index now has a "# Meeting Transcript" section, not "# Guide".
      "bitwild-profile/index-current",
    ],
  );
  chain.bound.types = [];
  const ids = applyProfile(loadBundle(join(project, "knowledge")), chain).findings.map((f) => f.id);
  assert.ok(ids.includes("bitwild-profile/used-type-registered"), ids.join());
});

/** The findings of one rule after `edit` rewrote include-pdf-annotations.md. */
async function ruleFindings(rule: string, edit: (text: string) => string, extra?: string[]) {
  const project = await bitwildCopy();
  const file = join(project, "knowledge", "reporting", "include-pdf-annotations.md");
  writeFileSync(file, edit(readFileSync(file, "utf8")));
  const chain = bitwildChain(project);
  for (const name of extra ?? []) chain.bound.relationships.push({ name });
  return applyProfile(loadBundle(join(project, "knowledge")), chain).findings
    .filter((f) => f.id === `bitwild-profile/${rule}`)
    .map((f) => `${summary(f)}:${f.location.column} ${f.message}`);
}

Deno.test("concept-baseline-fields requires non-empty type, title, description and status", async () => {
  const baseline = "Every concept must contain non-empty string values for type, title, " +
    "description, and status.";
  const at = "reporting/include-pdf-annotations.md:2:1";
  for (const key of ["title", "description", "status"]) {
    const dropped = (t: string) => t.replace(new RegExp(`^${key}: .*\\n`, "m"), "");
    assert.deepEqual(await ruleFindings("concept-baseline-fields", dropped), [
      `error bitwild-profile/concept-baseline-fields ${at} ${baseline}`,
    ], key);
  }
  const blank = (t: string) => t.replace(/^title: .*$/m, 'title: "  "');
  assert.equal((await ruleFindings("concept-baseline-fields", blank)).length, 1);
  assert.deepEqual(await ruleFindings("concept-baseline-fields", (t) => t), []);
});

Deno.test("used-relationship-declared rejects a relationship name nobody declares, at its list", async () => {
  const renamed = (t: string) =>
    t.replace("relationship: specified-by", "relationship: inspired-by");
  assert.deepEqual(await ruleFindings("used-relationship-declared", renamed), [
    "error bitwild-profile/used-relationship-declared reporting/include-pdf-annotations.md:15:1 " +
    "Relationship names must be declared by the selected Profile binding; found " +
    '{"relationship":"inspired-by","resource":"https://github.com/conceptadev/example/issues/128"}.',
  ]);
  // The project may declare its own names in wayfinder.json.
  assert.deepEqual(await ruleFindings("used-relationship-declared", renamed, ["inspired-by"]), []);
  assert.deepEqual(await ruleFindings("used-relationship-declared", (t) => t), []);
});

Deno.test("source-id-unique points at the repeated id, not at the file start", async () => {
  const repeated = (t: string) =>
    t.replace(
      "    last_modified: 2026-07-30T00:00:00Z\n",
      "    last_modified: 2026-07-30T00:00:00Z\n  - resource: /b.md\n    id: demo-0730\n",
    );
  const [found] = await ruleFindings("source-id-unique", repeated);
  // Line 16 is `    id: demo-0730`, under the second entry `  - resource: /b.md` on line 15.
  assert.match(
    found!,
    /^error bitwild-profile\/source-id-unique reporting\/include-pdf-annotations\.md:16:5 /,
  );
  assert.deepEqual(await ruleFindings("source-id-unique", (t) => t), []);
});

Deno.test("a rule message names an empty value as (none), not null", async () => {
  const project = await bitwildCopy();
  const file = join(project, "knowledge", "reporting", "include-pdf-annotations.md");
  writeFileSync(file, readFileSync(file, "utf8").replace(/^type: .*$/m, "type:"));
  const chain: ProfileChain = {
    bound: readBinding(join(project, "wayfinder.json")).profiles[0]!,
    packages: [readProfilePackage(PEER + "examples/profiles/two-rule")],
  };
  const messages = applyProfile(loadBundle(join(project, "knowledge")), chain).findings
    .filter((f) => f.id === "acme-notes/known-type").map((f) => f.message);
  assert.ok(messages.includes("Type (none) is not declared."), messages.join("; "));
  assert.ok(!messages.some((m) => m.includes("null")), messages.join("; "));
});

Deno.test("applyProfile() applies no rule it cannot evaluate as written, and says why", async () => {
  const project = await bitwildCopy();
  const rule = (id: string, check: Record<string, unknown>) => ({
    id,
    severity: "error" as const,
    message: `${id} failed`,
    check,
  });
  const never = { not: {} };
  const pkg: ProfilePackage = {
    ...readProfilePackage(PEER + "examples/profiles/two-rule"),
    id: "p",
    rules: [
      rule("bad-regex", {
        subject: "frontmatter",
        schema: { properties: { title: { pattern: "([" } } },
      }),
      rule("bad-ref", { subject: "concept", schema: { $ref: "#/$defs/nope" } }),
      rule("gen", { builtin: "matches-generated", params: { generator: "no-such-generator" } }),
      rule("tagz", { subject: "concept", each: "tagz", schema: never }),
      rule("each-file", { subject: "file", each: "tags", schema: never }),
      rule("subject", { subject: "paragraph", schema: never }),
      rule("builtin", { builtin: "toString" }),
      rule("runs", { subject: "root", schema: never }),
    ],
  };
  const chain = { bound: bitwildChain(project).bound, packages: [pkg] };
  const outcome = applyProfile(loadBundle(join(project, "knowledge")), chain);
  assert.deepEqual(outcome.findings.map((f) => f.id), ["p/runs"]);
  assert.deepEqual(outcome.unsupported.map((u) => `${u.id}: ${u.reason}`), [
    "p/bad-regex: its schema does not compile (Invalid regular expression: /([/u: " +
    "Unterminated character class)",
    "p/bad-ref: its schema does not compile (can't resolve reference #/$defs/nope from id #)",
    'p/gen: its generator "no-such-generator" is unknown (this wayfinder has okf-index)',
    "p/tagz: its 'each' names 'tagz', which is no list of a concept " +
    "(tags, keys, relationships, footnotes, edges)",
    "p/each-file: its 'each' names 'tags', but only concept and frontmatter rules " +
    "check each item of a list",
    "p/subject: its subject 'paragraph' is unknown to this wayfinder",
    "p/builtin: its builtin 'toString' is unknown to this wayfinder",
  ]);
});
