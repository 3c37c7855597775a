import { equal, throws } from "node:assert/strict";
import type { ConceptMeta } from "./concept.ts";
import {
  checkQualifiers,
  eligibility,
  type KnowledgePolicy,
  lifecycleRule,
} from "./knowledge_policy.ts";

const RETENTION: ConceptMeta = {
  path: "policies/retention-90.md",
  title: "90-day retention",
  links: [],
  status: "deprecated",
  staleAfter: "2025-07-01",
};

Deno.test("eligibility() keeps a deprecated concept as of a date before its stale_after: it was in force then", () => {
  const current = (asOf?: string) => eligibility({ current: true, asOf })(RETENTION);
  equal(current("2025-01-01"), true, "replaced later");
  equal(current("2025-07-01"), true, "stale only after that day");
  equal(current("2025-07-02"), false, "past stale_after");
  equal(current(), false, "today, deprecated is dropped");
  const undated = { ...RETENTION, staleAfter: undefined };
  equal(eligibility({ current: true, asOf: "2020-01-01" })(undated), false, "no date: dropped");
  equal(eligibility({ asOf: "2025-01-01" })(RETENTION), true, "no `current`, no lifecycle");
});

Deno.test("checkQualifiers() refuses asOf without current, named as it was given", () => {
  const refused = (policy: KnowledgePolicy, message: string) =>
    throws(() => checkQualifiers(policy), { message });
  refused({ asOf: "2025-01-01" }, "asOf applies only with current");
  refused(
    { asOf: "2025-01-01", current: false, origins: { asOf: "--as-of" } },
    "--as-of applies only with --current",
  );
  checkQualifiers({ asOf: "2025-01-01", current: true });
  checkQualifiers({ current: false });
  // wayfinder.json's date waits for a --current.
  checkQualifiers({ asOf: "2025-01-01", origins: { asOf: "wayfinder.json 'knowledge.asOf'" } });
});

Deno.test("lifecycleRule() says why `current` drops a concept", () => {
  const why = lifecycleRule({ current: true, asOf: "2025-08-01" });
  equal(why(RETENTION), "is past stale_after 2025-07-01");
  equal(why({ ...RETENTION, staleAfter: undefined }), "is deprecated");
  equal(why({ ...RETENTION, status: "stable", staleAfter: "2026-01-01" }), undefined);
});
