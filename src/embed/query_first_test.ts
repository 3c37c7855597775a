import assert from "node:assert/strict";
import { QueryFirstTurns } from "./query_first.ts";

/** A turn that logs its start and end, and ends when its `finish` is called. */
function turn(log: string[], name: string) {
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => finish = resolve);
  return {
    finish,
    work: async () => {
      log.push(`start ${name}`);
      await ended;
      log.push(`end ${name}`);
      return name;
    },
  };
}

Deno.test("QueryFirstTurns runs one turn at a time, waiting queries before waiting passages", async () => {
  const turns = new QueryFirstTurns();
  const log: string[] = [];
  const [p1, p2, p3, q1, q2] = ["p1", "p2", "p3", "q1", "q2"].map((name) => turn(log, name));
  const done = [
    turns.run("passage", p1!.work),
    turns.run("passage", p2!.work),
    turns.run("passage", p3!.work),
    turns.run("query", q1!.work),
    turns.run("query", q2!.work),
  ];
  for (const t of [p1, q1, q2, p2, p3]) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    t!.finish();
  }
  assert.deepEqual(await Promise.all(done), ["p1", "p2", "p3", "q1", "q2"]);
  assert.deepEqual(log, [
    "start p1",
    "end p1",
    "start q1",
    "end q1",
    "start q2",
    "end q2",
    "start p2",
    "end p2",
    "start p3",
    "end p3",
  ]);
});

Deno.test("QueryFirstTurns passes a failure to its caller and goes on with the next turn", async () => {
  const turns = new QueryFirstTurns();
  const failing = turns.run("passage", () => Promise.reject(new Error("no vector")));
  const throwing = turns.run("query", () => {
    throw new Error("thrown before any await");
  });
  const next = turns.run("passage", () => Promise.resolve("next"));
  await assert.rejects(failing, /no vector/);
  await assert.rejects(throwing, /thrown before any await/);
  assert.equal(await next, "next");
});
