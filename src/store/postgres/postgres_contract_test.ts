/**
 * The Store contract suite (src/store/testdata/store_contract.ts) on the
 * PostgreSQL store, against a real server with pgvector on loopback; each
 * test gets a corpus of its own in that server.
 */
import { postgresUnavailable, startPostgres } from "../../../tests/_postgres_server.ts";
import { storeContract } from "../testdata/store_contract.ts";
import { openPostgresStore } from "./mod.ts";

const unavailable = await postgresUnavailable();
if (unavailable) {
  console.error(`postgres_contract_test: skipped, no PostgreSQL server: ${unavailable}`);
  Deno.test({ name: `postgres store: the Store contract (${unavailable})`, ignore: true, fn() {} });
} else {
  const server = await startPostgres();
  addEventListener("unload", () => server.stopNow());
  let corpora = 0;
  storeContract("postgres", async () => ({
    store: await openPostgresStore(server.url, { corpus: `contract-${++corpora}` }),
    cleanup: () => Promise.resolve(),
  }));
}
