/**
 * A PostgreSQL server for the scale bench whose data outlives the run
 * (`--data DIR`), so that a million-chunk corpus is ingested once and its
 * queries measured again later. The binaries are the pinned ones of
 * tests/_postgres_server.ts; the settings are those docs/postgres.md
 * recommends for a large corpus (shared_buffers holding the HNSW index,
 * maintenance_work_mem holding its build), with durability off: this data
 * can be made again.
 */
import { join } from "node:path";
import {
  asServerUser,
  binDir,
  createDatabase,
  initData,
  installPostgres,
} from "../tests/_postgres_server.ts";

/** Written to a new data folder's postgresql.conf. */
const SETTINGS = `
# wayfinder scale bench (bench/_postgres_data.ts)
listen_addresses = '127.0.0.1'
fsync = off
full_page_writes = off
synchronous_commit = off
wal_level = minimal
max_wal_senders = 0
max_wal_size = 16GB
checkpoint_timeout = 30min
max_connections = 50
shared_buffers = 6GB
effective_cache_size = 16GB
maintenance_work_mem = 8GB
max_parallel_maintenance_workers = 1
work_mem = 64MB
jit = off
`;

async function run(cmd: string, args: string[]): Promise<{ ok: boolean; text: string }> {
  const [c, a] = asServerUser(cmd, args);
  const out = await new Deno.Command(c, { args: a, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.success ? out.stdout : out.stderr).trim();
  return { ok: out.success, text };
}

/**
 * The server of `dir` on 127.0.0.1:`port`: made on first use, started
 * unless it runs already. Its `stop` stops it only if this call started it.
 */
export async function persistentPostgres(
  dir: string,
  port = 55432,
): Promise<{ url: string; stop(): Promise<void> }> {
  await installPostgres();
  const bin = binDir();
  const data = join(dir, "data");
  const url = `postgres://wayfinder@127.0.0.1:${port}/wayfinder`;
  await Deno.mkdir(dir, { recursive: true });
  if (Deno.uid() === 0) await new Deno.Command("chown", { args: ["nobody:nogroup", dir] }).output();
  const fresh = !(await Deno.stat(join(data, "PG_VERSION")).then(() => true, () => false));
  if (fresh) {
    await initData(data);
    await run("sh", [
      "-c",
      `cat >> '${data}/postgresql.conf' <<'EOF'${SETTINGS}port = ${port}\nunix_socket_directories = '${dir}'\nEOF`,
    ]);
  }
  const status = await run(join(bin, "pg_ctl"), ["-D", data, "status"]);
  let started = false;
  if (!status.ok) {
    const start = await run(join(bin, "pg_ctl"), [
      "-D",
      data,
      "-l",
      join(dir, "log"),
      "-w",
      "start",
    ]);
    if (!start.ok) throw new Error(`the server of ${dir} did not start: ${start.text}`);
    started = true;
  }
  if (fresh) await createDatabase(port);
  return {
    url,
    async stop() {
      if (started) await run(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]);
    },
  };
}
