import assert from "node:assert/strict";
import { defaultThreads } from "./default_threads.ts";

Deno.test("defaultThreads() leaves out a core another process keeps busy", async () => {
  const cores = navigator.hardwareConcurrency;
  const spinner = new Deno.Command(Deno.execPath(), {
    args: ["eval", "for (;;) {}"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // let it start spinning
    const threads = await defaultThreads();
    assert.ok(threads >= 1 && threads <= Math.max(1, Math.min(cores - 1, 8)), `${threads}`);
  } finally {
    spinner.kill();
    await spinner.status;
  }
});
