/** The Store contract suite (src/store/testdata/store_contract.ts) on the Orama store. */
import { join } from "node:path";
import { contractInputHash, storeContract } from "../testdata/store_contract.ts";
import { OramaStore } from "./orama_store.ts";

storeContract("orama", async () => {
  const dir = await Deno.makeTempDir();
  const path = `orama:${join(dir, "index.orama.json")}`;
  return {
    store: new OramaStore(path, { inputHash: contractInputHash }),
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
});
