import { equal, match } from "node:assert/strict";
import { join } from "node:path";
import { declaresBundle, policyIgnoredNotice } from "./corpus_settings.ts";

Deno.test("declaresBundle() reads index.md as the walker does: a UTF-8 BOM is dropped", async () => {
  const root = await Deno.makeTempDir();
  const declaration = new TextEncoder().encode('---\nokf_version: "0.2"\n---\n\n# Areas\n');
  const write = (bytes: Uint8Array) => Deno.writeFile(join(root, "index.md"), bytes);
  try {
    equal(await declaresBundle(root), false, "no index.md");
    await write(declaration);
    equal(await declaresBundle(root), true);
    await write(new Uint8Array([0xef, 0xbb, 0xbf, ...declaration]));
    equal(await declaresBundle(root), true, "after a BOM");
    await write(new Uint8Array([...declaration, 0xe9]));
    equal(await declaresBundle(root), false, "not UTF-8: the walker skips it");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("policyIgnoredNotice() names the real cause and what to run", () => {
  const notice = (declared: boolean, chosen?: boolean) =>
    policyIgnoredNotice("/kb", { declared, chosen });
  match(
    notice(true),
    /\(its index\.md now declares okf_version but the index predates that; run 'wayfinder index \/kb'\)$/,
  );
  match(notice(false), /\(its index\.md declares no okf_version; index it with --knowledge/);
  match(notice(false, true), /indexed before knowledge was turned on; run 'wayfinder index \/kb'/);
  match(notice(true, false), /knowledge indexing is turned off for it\)$/);
});
