import { LocalStore } from "./local_store.ts";
import { contractInputHash, storeContract } from "./testdata/store_contract.ts";

storeContract("local", async () => {
  const dir = await Deno.makeTempDir();
  return {
    store: new LocalStore(dir, { inputHash: contractInputHash }),
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
});
