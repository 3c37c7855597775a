import { equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import process from "node:process";
import { WayfinderError } from "../error.ts";
import { acquireIndexLock, processAlive, readIndexLock } from "./index_lock.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("acquireIndexLock() refuses a second holder while the first holds the lock", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lock = await acquireIndexLock(dir, "/corpus");
    await rejects(
      acquireIndexLock(dir, "/corpus"),
      (error: unknown) =>
        error instanceof WayfinderError && error.code === "busy" &&
        new RegExp(
          `^Cannot index /corpus: index is busy \\(held by another wayfinder index or watch, pid ${process.pid}, since \\d{4}-`,
        )
          .test(error.message),
    );
    await lock.release();
    equal(await exists(join(dir, "lock")), false);
    const again = await acquireIndexLock(dir, "/corpus");
    await again.release();
    equal(await exists(join(dir, "lock")), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireIndexLock() takes over a lock whose process is dead", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "lock");
    await Deno.writeTextFile(
      path,
      JSON.stringify({ pid: 999999, since: "2020-01-01T00:00:00Z", token: "old" }),
    );
    const lock = await acquireIndexLock(dir);
    const record = JSON.parse(await Deno.readTextFile(path));
    equal(record.pid, process.pid);
    await lock.release();
    await Deno.writeTextFile(path, "{half"); // its writer died mid-write
    await (await acquireIndexLock(dir)).release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireIndexLock() holds against a live child process and release leaves others' locks alone", async () => {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    const path = join(dir, "lock");
    const since = new Date().toISOString();
    await Deno.writeTextFile(path, JSON.stringify({ pid: child.pid, since, token: "x" }));
    await rejects(
      acquireIndexLock(dir),
      new RegExp(
        `index is busy \\(held by another wayfinder index or watch, pid ${child.pid}, since ${since}`,
      ),
    );
    ok(await exists(path));
    child.kill("SIGKILL");
    await child.status;
    const lock = await acquireIndexLock(dir);
    await Deno.writeTextFile(
      path,
      JSON.stringify({ pid: child.pid, since: "x", token: "someone else" }),
    );
    await lock.release();
    ok(await exists(path), "release removed a lock that was no longer ours");
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already dead.
    }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

/** Before this process, and before the machine's boot: no process now running wrote it. */
const LONG_AGO = "2000-01-01T00:00:00.000Z";
const LINUX = (() => {
  try {
    Deno.statSync("/proc/1/stat");
    return true;
  } catch {
    return false;
  }
})();

Deno.test("acquireIndexLock() takes over a lock naming this process's pid from before it started", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "lock");
    // What a run killed before this process was born leaves when the OS reuses its pid.
    await Deno.writeTextFile(
      path,
      JSON.stringify({ pid: process.pid, since: LONG_AGO, token: "old" }),
    );
    equal(readIndexLock(dir)?.alive, false);
    equal(processAlive(process.pid, LONG_AGO), false);
    equal(processAlive(process.pid, new Date().toISOString()), true);
    const lock = await acquireIndexLock(dir);
    equal(readIndexLock(dir)?.alive, true, "a lock this process holds stays held");
    await lock.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "acquireIndexLock() takes over a lock whose pid now names a process started after it",
  ignore: !LINUX,
  async fn() {
    const dir = await Deno.makeTempDir();
    const child = new Deno.Command("sleep", { args: ["30"] }).spawn();
    try {
      const path = join(dir, "lock");
      for (const pid of [1, child.pid]) {
        // A lock left from before a reboot or a crash: pid 1 is init now, the child is newer.
        await Deno.writeTextFile(path, JSON.stringify({ pid, since: LONG_AGO, token: "old" }));
        equal(readIndexLock(dir)?.alive, false, `pid ${pid}`);
        equal(processAlive(pid, LONG_AGO), false, `pid ${pid}`);
        const lock = await acquireIndexLock(dir);
        equal(JSON.parse(await Deno.readTextFile(path)).pid, process.pid);
        await lock.release();
      }
      equal(processAlive(child.pid, new Date().toISOString()), true, "the writer itself is alive");
      equal(processAlive(child.pid), true, "without a time, the pid existing counts");
    } finally {
      child.kill("SIGKILL");
      await child.status;
      await Deno.remove(dir, { recursive: true });
    }
  },
});
