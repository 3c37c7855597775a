/**
 * The knowledge policy on a team's bundle: what `--current` keeps as of a
 * date and says it dropped, how scoping spares context, and how matches
 * linked from each other keep their place. Real index, tiny model, lexical
 * ranking (so which concept wins is decided by the words).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { wayfinder } from "./_run.ts";
import { tinyEnv } from "./_env.ts";

const CONCEPTS: Record<string, string> = {
  "index.md": '---\nokf_version: "0.2"\n---\n\n# Team knowledge\n',
  "decisions/adr-002-kafka-events.md":
    "---\ntype: Decision\ntitle: Kafka for events\n---\n\n# Decision\n\n" +
    "We use Kafka for events: Kafka carries every event. Superseded by [NATS](adr-007-nats-events.md).\n",
  "decisions/adr-007-nats-events.md":
    "---\ntype: Decision\ntitle: NATS for events\n---\n\n# Decision\n\nEvents move from Kafka to NATS.\n",
  "standards/api-standard.md":
    "---\ntype: Standard\ntitle: API standard\n---\n\nEvery interface is versioned.\n",
  "runbooks/cert-rotation.md":
    "---\ntype: Runbook\ntitle: Certificate rotation\nstale_after: 2024-12-31\n---\n\n" +
    "When TLS certificate renewal failed, renew the TLS certificate by hand.\n",
  "runbooks/oncall-escalation.md":
    "---\ntype: Runbook\ntitle: On-call escalation\nstatus: stable\n---\n\n" +
    "Page the on-call engineer when renewal of anything failed twice.\n",
  "standards/engineering-standards.md":
    "---\ntype: Standard\ntitle: Engineering standards\nstatus: stable\n---\n\n" +
    "Every page is acknowledged within fifteen minutes.\n",
  "policies/retention-90.md":
    "---\ntype: Policy\ntitle: Log retention\nstatus: deprecated\nstale_after: 2025-07-01\n---\n\n" +
    "Keep logs for 90 days.\n",
  "policies/retention-30.md":
    "---\ntype: Policy\ntitle: Log retention\nstatus: stable\n---\n\nKeep logs for 30 days.\n",
};

interface Answer {
  matches: { chunk: { sourcePath: string } }[];
  context: { reason: string; path: string; viaPath?: string }[];
  notices: string[];
}

async function bundle() {
  const root = await Deno.makeTempDir({ prefix: "wayfinder-policy-" });
  for (const [path, text] of Object.entries(CONCEPTS)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  const env = await tinyEnv();
  const built = await wayfinder(["index", root], env);
  assert.equal(built.code, 0, built.stderr);
  const ask = async (query: string, flags: string[]) => {
    const run = await wayfinder(
      ["search", root, query, "--mode", "lexical", "--output", "json", ...flags],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout) as Answer;
  };
  return { root, env, ask };
}

const { root, env, ask } = await bundle();
const paths = (answer: Answer) => answer.matches.map((m) => m.chunk.sourcePath);
const entries = (answer: Answer) =>
  answer.context.map((e) => [e.reason, e.path, e.viaPath ?? null]);

Deno.test("a match linked from an earlier match stays a match, its governing source before it", async () => {
  const answer = await ask("kafka events", [
    "--limit",
    "2",
    "--expand-links",
    "--governing",
    "decisions/adr-007-nats-events.md=standards/api-standard.md",
  ]);
  assert.deepEqual(paths(answer), [
    "decisions/adr-002-kafka-events.md",
    "decisions/adr-007-nats-events.md",
  ]);
  assert.deepEqual(entries(answer), [
    ["match", "decisions/adr-002-kafka-events.md", null],
    ["governing", "standards/api-standard.md", "decisions/adr-007-nats-events.md"],
    ["match", "decisions/adr-007-nats-events.md", null],
  ]);
});

Deno.test("--current --as-of a past date keeps a deprecated concept not yet past its stale_after", async () => {
  const then = await ask("keep logs days", ["--current", "--as-of", "2025-01-01"]);
  assert.ok(paths(then).includes("policies/retention-90.md"), "in force until 2025-07-01");
  const later = await ask("keep logs days", ["--current", "--as-of", "2025-08-01"]);
  assert.deepEqual(paths(later), ["policies/retention-30.md"]);
  const today = await ask("keep logs days", ["--current"]);
  assert.deepEqual(paths(today), ["policies/retention-30.md"], "without a date, deprecated goes");
});

Deno.test("--current names the concepts it dropped that matched better than the first match", async () => {
  const dropped = await ask("TLS certificate renewal failed", ["--limit", "2", "--current"]);
  assert.ok(!paths(dropped).includes("runbooks/cert-rotation.md"));
  assert.ok(
    dropped.notices.includes(
      "runbooks/cert-rotation.md matched better but is past stale_after 2024-12-31",
    ),
    dropped.notices.join("\n"),
  );
  const history = await ask("keep logs for 90 days", ["--current"]);
  assert.match(
    history.notices.join("\n"),
    /policies\/retention-90\.md matched better but is past stale_after 2025-07-01/,
  );
  const kept = await ask("TLS certificate renewal failed", ["--current", "--as-of", "2024-06-01"]);
  assert.doesNotMatch(kept.notices.join("\n"), /matched better/, "nothing better was dropped");
  assert.doesNotMatch(
    (await ask("TLS certificate renewal failed", [])).notices.join("\n"),
    /matched better/,
  );
});

Deno.test("--concept-type and --status scope the matches, not their governing sources", async () => {
  const governing = "runbooks/oncall-escalation.md=standards/engineering-standards.md";
  for (const scope of [["--concept-type", "Runbook"], ["--status", "stable"]]) {
    const answer = await ask("page the on-call engineer", [
      "--limit",
      "1",
      "--governing",
      governing,
      ...scope,
    ]);
    assert.deepEqual(entries(answer), [
      ["governing", "standards/engineering-standards.md", "runbooks/oncall-escalation.md"],
      ["match", "runbooks/oncall-escalation.md", null],
    ], scope.join(" "));
    assert.doesNotMatch(answer.notices.join("\n"), /excluded/);
  }
});

Deno.test("--as-of without --current is refused; wayfinder.json's date waits for a --current", async () => {
  const lone = await wayfinder(["search", root, "logs", "--as-of", "2025-01-01"], env);
  assert.equal(lone.code, 2);
  assert.match(lone.stderr, /--as-of applies only with --current/);
  // The help says so before anyone meets the refusal.
  for (const command of ["search", "mcp"]) {
    const help = await wayfinder([command, "--help"], env);
    assert.match(help.stdout, /^ +--as-of DATE +Knowledge search, only with --current: /m, command);
  }
  await Deno.writeTextFile(
    join(root, "wayfinder.json"),
    JSON.stringify({ knowledge: { asOf: "2025-01-01" } }),
  );
  try {
    assert.deepEqual(paths(await ask("keep logs days", [])).sort(), [
      "policies/retention-30.md",
      "policies/retention-90.md",
    ]);
    assert.ok(
      paths(await ask("keep logs days", ["--current"])).includes("policies/retention-90.md"),
    );
  } finally {
    await Deno.remove(join(root, "wayfinder.json"));
  }
});
