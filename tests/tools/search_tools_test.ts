import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { call, makeWorkspace, removeWorkspace, toolsFor } from "./_workspace.ts";

Deno.test("list_dir() prints an indented tree with / for directories and @ for symlinks", async () => {
  const box = await makeWorkspace();
  await platform.fs.symlink(box.outside, `${box.ws}/out`);
  const { list_dir } = toolsFor(box);
  const got = await call(list_dir, box, {});
  assert.deepStrictEqual(got, {
    approval: { kind: "none" },
    result: {
      status: "success",
      output: [`${box.ws}/`, "README.md", "docs/", "  notes.txt", "out@", "src/", "  main.ts", "  util/"]
        .join("\n"),
    },
  });
  await removeWorkspace(box);
});

Deno.test("list_dir() descends to the given depth and errors when the path is not a directory", async () => {
  const box = await makeWorkspace();
  const { list_dir } = toolsFor(box);
  const deep = await call(list_dir, box, { path: "src", depth: 3 });
  const file = await call(list_dir, box, { path: "README.md" });
  assert.deepStrictEqual([deep.result, file.result], [
    { status: "success", output: `${box.ws}/src/\nmain.ts\nutil/\n  strings.ts` },
    { status: "error", output: 'Cannot list "README.md": not a directory' },
  ]);
  await removeWorkspace(box);
});

Deno.test("glob() returns sorted relative paths when the pattern spans directories", async () => {
  const box = await makeWorkspace();
  const { glob } = toolsFor(box);
  const all = await call(glob, box, { pattern: "**/*.ts" });
  const top = await call(glob, box, { pattern: "src/*.{ts,md}" });
  const none = await call(glob, box, { pattern: "*.rs", path: "src" });
  assert.deepStrictEqual([all.result, top.result, none.result], [
    { status: "success", output: "src/main.ts\nsrc/util/strings.ts" },
    { status: "success", output: "src/main.ts" },
    { status: "success", output: `No files match "*.rs" in ${box.ws}/src` },
  ]);
  await removeWorkspace(box);
});

Deno.test("glob() needs approval when the search root is outside the roots", async () => {
  const box = await makeWorkspace();
  const { glob } = toolsFor(box);
  const got = await call(glob, box, { pattern: "*", path: box.outside });
  assert.deepStrictEqual(got.approval, {
    kind: "required",
    reason: `reading "${box.outside}" outside the workspace and readable roots`,
    subject: { kind: "path", path: box.outside, access: "read" },
  });
  assert.equal(got.result.status, "denied");
  await removeWorkspace(box);
});

Deno.test("grep() lists path:line: text for matches, filtered by include", async () => {
  const box = await makeWorkspace();
  const { grep } = toolsFor(box);
  const todo = await call(grep, box, { pattern: "^TODO|^todo" });
  const ts = await call(grep, box, { pattern: "greet", include: "*.ts" });
  const file = await call(grep, box, { pattern: "shout", path: "src/util/strings.ts" });
  assert.deepStrictEqual([todo.result, ts.result, file.result], [
    {
      status: "success",
      output: "docs/notes.txt:1: TODO: write more docs\ndocs/notes.txt:2: todo: lower case todo",
    },
    {
      status: "success",
      output: [
        'src/main.ts:1: import { greet } from "./util/strings.ts";',
        'src/main.ts:4:   console.log(greet("world"));',
        "src/util/strings.ts:1: export function greet(name: string): string {",
      ].join("\n"),
    },
    { status: "success", output: "strings.ts:5: export function shout(text: string): string {" },
  ]);
  await removeWorkspace(box);
});

Deno.test("grep() skips symlinks and binary files when searching a directory", async () => {
  const box = await makeWorkspace();
  await platform.fs.symlink(`${box.outside}/secret.txt`, `${box.ws}/secret-link.txt`);
  await platform.fs.writeFileAtomic(`${box.ws}/blob.bin`, new TextEncoder().encode("secret\0"));
  const { grep } = toolsFor(box);
  const got = await call(grep, box, { pattern: "secret" });
  assert.deepStrictEqual(got.result, { status: "success", output: `No matches for /secret/ in ${box.ws}` });
  await removeWorkspace(box);
});

Deno.test("grep.parseArguments() throws a readable error when the pattern is not a valid regex", () => {
  const tools = toolsFor({ root: "/", ws: "/", outside: "/", tmp: "/" });
  assert.throws(() => tools.grep.parseArguments({ pattern: "(" }), {
    name: "TrellisError",
    message: 'Cannot parse arguments for "grep": pattern: not a valid regular expression',
  });
});
