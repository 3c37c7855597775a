import { equal } from "node:assert/strict";
import { dataRootFrom } from "./data_root.ts";

Deno.test("dataRootFrom() prefers WAYFINDER_DATA_DIR, then XDG_DATA_HOME, then HOME", () => {
  equal(dataRootFrom({ WAYFINDER_DATA_DIR: "/d", XDG_DATA_HOME: "/x", HOME: "/h" }), "/d");
  equal(dataRootFrom({ XDG_DATA_HOME: "/x", HOME: "/h" }), "/x/wayfinder");
  equal(
    dataRootFrom({ WAYFINDER_DATA_DIR: "", XDG_DATA_HOME: "", HOME: "/h" }),
    "/h/.local/share/wayfinder",
  );
});
