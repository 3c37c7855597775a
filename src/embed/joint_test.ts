import assert from "node:assert/strict";
import { WayfinderError } from "../error.ts";
import { FakeEmbedder } from "./fake.ts";
import { isJoint, JointEmbedder, jointParts, onlyJoiningDiffers } from "./joint.ts";

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

const TEXTS = ["refresh the auth token", "parse the config file"];

Deno.test("JointEmbedder: unit vectors whose dot product blends the two cosines by the share", async () => {
  const first = new FakeEmbedder({ dimensions: 12 });
  const second = new FakeEmbedder({ dimensions: 5 });
  const joint = new JointEmbedder(first, second, 0.3);
  const [a, b] = await joint.embedDocuments(TEXTS);
  const [a1, b1] = await first.embedDocuments(TEXTS);
  const [a2, b2] = await second.embedDocuments(TEXTS);
  assert.equal(a!.length, 17);
  assert.ok(Math.abs(dot(a!, a!) - 1) < 1e-6);
  assert.ok(Math.abs(dot(a!, b!) - (0.7 * dot(a1!, b1!) + 0.3 * dot(a2!, b2!))) < 1e-6);
  const query = await joint.embedQuery(TEXTS[1]!);
  assert.ok(Math.abs(dot(query, b!) - 1) < 1e-6, "a query and a passage of one text meet");
  assert.equal(
    await joint.countTokens("a b c", "document"),
    await first.countTokens("a b c", "document"),
  );
});

Deno.test("JointEmbedder: the identity keeps the first model's name and budget and names the join", () => {
  const first = new FakeEmbedder({ dimensions: 12 });
  const joint = new JointEmbedder(first, new FakeEmbedder({ dimensions: 5 }), 0.2);
  const { identity } = joint;
  assert.equal(identity.name, first.identity.name);
  assert.equal(identity.maxTokens, first.identity.maxTokens);
  assert.equal(identity.provider, "fake+fake 0.2");
  assert.equal(identity.dimensions, 17);
  const parts = jointParts(identity)!;
  assert.deepEqual(parts.first, { ...identity, provider: "fake", sha256: first.identity.sha256 });
  assert.equal(parts.share, 0.2);
  assert.ok(isJoint(identity) && !isJoint(first.identity));
});

Deno.test("onlyJoiningDiffers: the same first model joined or not, never another model", () => {
  const first = new FakeEmbedder({ dimensions: 12 }).identity;
  const joined = new JointEmbedder(new FakeEmbedder({ dimensions: 12 }), new FakeEmbedder(), 0.2);
  const otherShare = new JointEmbedder(
    new FakeEmbedder({ dimensions: 12 }),
    new FakeEmbedder(),
    0.5,
  );
  assert.equal(onlyJoiningDiffers(first, joined.identity), true);
  assert.equal(onlyJoiningDiffers(joined.identity, first), true);
  assert.equal(onlyJoiningDiffers(joined.identity, otherShare.identity), true);
  assert.equal(onlyJoiningDiffers(first, first), false);
  assert.equal(onlyJoiningDiffers({ ...first, sha256: "other" }, joined.identity), false);
  assert.equal(onlyJoiningDiffers({ ...first, inputFormat: 2 }, joined.identity), false);
  // Another long-input policy is the user's choice, not the join's: no silent rebuild.
  assert.equal(onlyJoiningDiffers({ ...first, longInput: "truncate" }, joined.identity), false);
});

Deno.test("JointEmbedder: a share outside 0 to 1 is a usage error", () => {
  for (const share of [-0.1, 1.5, Number.NaN]) {
    assert.throws(
      () => new JointEmbedder(new FakeEmbedder(), new FakeEmbedder(), share),
      (error) => error instanceof WayfinderError && error.code === "usage",
    );
  }
});
