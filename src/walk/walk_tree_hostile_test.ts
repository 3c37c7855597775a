import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { type WalkResult, walkTree } from "./mod.ts";
import { paths, withTree } from "./testdata/make_tree.ts";

const bytes = (...b: number[]) => new Uint8Array(b);
const utf8 = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));

Deno.test("walkTree() skips binary files, a NUL anywhere included, with a reason", async () => {
  const files = {
    "logo.png": bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00),
    // Past the 8 KiB git looks at: still binary here.
    "late_nul.txt": concat(utf8("x".repeat(20000)), bytes(0)),
    "utf16.txt": concat(bytes(0xff, 0xfe), utf8("h\0i\0")),
    "text.txt": "plain\n",
  };
  await withTree(files, async (root) => {
    const { files, skipped } = await walkTree(root);
    assert.deepEqual(files.map((f) => f.path), ["text.txt"]);
    assert.deepEqual(skipped, [
      { path: "late_nul.txt", reason: "binary" },
      { path: "logo.png", reason: "binary" },
      { path: "utf16.txt", reason: "binary" },
    ]);
  });
});

Deno.test("walkTree() skips invalid UTF-8 rather than decoding it lossily", async () => {
  const files = {
    "truncated.txt": concat(utf8("ok "), bytes(0xe2, 0x9c)), // a 3-byte sequence cut short
    "overlong.txt": bytes(0x2f, 0xc0, 0xaf), // "/" spelled in two bytes
    "surrogate.txt": bytes(0xed, 0xa0, 0x80), // U+D800 encoded
    "stray.txt": bytes(0x61, 0x80, 0x62), // a continuation byte alone
    "emoji.txt": "👍 ✓ é\n",
  };
  await withTree(files, async (root) => {
    const { files, skipped } = await walkTree(root);
    assert.deepEqual(files.map((f) => [f.path, f.content]), [["emoji.txt", "👍 ✓ é\n"]]);
    assert.deepEqual(skipped.map((s) => s.reason), Array(4).fill("not_utf8"));
  });
});

Deno.test("walkTree() drops a leading UTF-8 BOM and keeps the size on disk", async () => {
  const bom = bytes(0xef, 0xbb, 0xbf);
  const files = {
    "bom.md": concat(bom, utf8("# Title\r\nText\r\n")),
    "only_bom.txt": bom,
    "inner.txt": concat(bom, utf8("a\uFEFFb")), // only the leading mark is dropped
  };
  await withTree(files, async (root) => {
    const found = (await walkTree(root)).files;
    assert.deepEqual(found.map((f) => [f.path, f.content, f.bytes]), [
      ["bom.md", "# Title\r\nText\r\n", 18],
      ["inner.txt", "a\uFEFFb", 8],
      ["only_bom.txt", "", 3],
    ]);
  });
});

const WALK_JSON = fileURLToPath(new URL("./testdata/walk_json.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));

/** Walks `root` in a child process that may not read `denied` (root included). */
async function walkDenied(root: string, denied: string[]): Promise<WalkResult> {
  const args = ["run", "--config", CONFIG, "--allow-read", `--deny-read=${denied.join(",")}`];
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...args, WALK_JSON, root],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const UNREADABLE_TREE = {
  "a.ts": "a",
  "secret.ts": "s",
  "locked/inner.ts": "i",
  "open/.gitignore": "*.log\n",
  "open/debug.log": "kept: its ignore file cannot be read",
  "z.ts": "z",
};

Deno.test("walkTree() skips unreadable files and folders and carries on", async () => {
  await withTree(UNREADABLE_TREE, async (root) => {
    const denied = ["secret.ts", "locked", "open/.gitignore"].map((p) => join(root, p));
    const { files, skipped } = await walkDenied(root, denied);
    assert.deepEqual(files.map((f) => f.path), ["a.ts", "open/debug.log", "z.ts"]);
    assert.deepEqual(skipped, [
      { path: "locked", reason: "unreadable" },
      { path: "open/.gitignore", reason: "unreadable" },
      { path: "secret.ts", reason: "unreadable" },
    ]);
  });
});

Deno.test({
  name: "walkTree() skips files and folders the OS will not let it read",
  // Root reads anything, whatever the mode bits say.
  ignore: Deno.build.os === "windows" || Deno.uid() === 0,
  fn: async () => {
    await withTree(UNREADABLE_TREE, async (root) => {
      await Deno.chmod(join(root, "secret.ts"), 0o000);
      await Deno.chmod(join(root, "locked"), 0o000);
      try {
        const { files, skipped } = await walkTree(root);
        assert.deepEqual(files.map((f) => f.path), ["a.ts", "open/.gitignore", "z.ts"]);
        assert.deepEqual(skipped, [
          { path: "locked", reason: "unreadable" },
          { path: "secret.ts", reason: "unreadable" },
        ]);
      } finally {
        await Deno.chmod(join(root, "locked"), 0o755);
      }
    });
  },
});

Deno.test("walkTree() handles names with spaces, newlines and glob characters", async () => {
  const names = [
    "my notes.md",
    "line\nbreak.ts",
    "tab\there.py",
    "-dash.ts",
    "#hash.md",
    "!bang.md",
    "[id].tsx",
    "back\\slash.js",
    "trailing .txt",
    "dir with space/new\nline/x.ts",
    "ünïcödé/日本.md",
  ];
  const files = Object.fromEntries(names.map((n) => [n, `content of ${n}`]));
  const noise = { "noise\n.log": "x", "sp ace.log": "x", "a\nb/drafts/d.md": "x" };
  await withTree({ ...files, ...noise, ".gitignore": "drafts/\n" }, async (root) => {
    const { files, skipped } = await walkTree(root, { exclude: ["*.log"] });
    assert.deepEqual(files.map((f) => f.path), [".gitignore", ...names].sort());
    for (const f of files.filter((f) => f.path !== ".gitignore")) {
      assert.equal(f.content, `content of ${f.path}`);
    }
    assert.deepEqual(skipped, []);
    assert.deepEqual(await paths(root, { include: ["dir with space/**"] }), [
      "dir with space/new\nline/x.ts",
    ]);
  });
});

Deno.test({
  name:
    "walkTree() skips files and folders whose names are not UTF-8 as non_utf8_name, bytes shown",
  // Linux file names are bytes; Deno hands them over lossily decoded.
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withTree({ "ok.ts": "ok", ".gitignore": "*.log\n" }, async (root) => {
      const made = await new Deno.Command("sh", {
        args: [
          "-c",
          'cd "$1" && printf x > "$(printf "bad\\377name.ts")" && ' +
          'printf x > "$(printf "caf\\351_latin1.txt")" && printf x > "$(printf "caf\\351\\134.md")" && ' +
          'mkdir "$(printf "dir_\\377")" && printf x > "$(printf "dir_\\377/inner.txt")" && ' +
          'printf x > "$(printf "noise\\377.log")" && printf x > "$(printf "ok\\357\\277\\275real.ts")"',
          "sh",
          root,
        ],
      }).output();
      assert.equal(made.code, 0, new TextDecoder().decode(made.stderr));
      const { files, skipped } = await walkTree(root);
      assert.deepEqual(files.map((f) => f.path), [".gitignore", "ok.ts", "ok\uFFFDreal.ts"]);
      assert.deepEqual(skipped, [
        { path: "bad\\xffname.ts", reason: "non_utf8_name" },
        { path: "caf\\xe9\\\\.md", reason: "non_utf8_name" },
        { path: "caf\\xe9_latin1.txt", reason: "non_utf8_name" },
        { path: "dir_\\xff", reason: "non_utf8_name" },
      ], "named by their bytes; an ignored one (noise\\xff.log) is not listed");
    });
  },
});
