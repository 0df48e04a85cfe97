import assert from "node:assert/strict";
import { findInjections, readWorkspacePath } from "../../lib/skills/gemini_injections.ts";
import { platform } from "../../lib/platform/mod.ts";

Deno.test("findInjections counts braces as Gemini's parser does: nested ones stay in, the content is trimmed", () => {
  const prompt = 'A @{ docs/{a,b}.md } B !{echo {"x":{"y":1}}} C @{x}';
  assert.deepStrictEqual(findInjections(prompt, "@{"), {
    injections: [
      { content: "docs/{a,b}.md", start: 2, end: 20 },
      { content: "x", start: 47, end: 51 },
    ],
  });
  assert.deepStrictEqual(findInjections(prompt, "!{").injections.map((i) => i.content), [
    'echo {"x":{"y":1}}',
  ]);
  assert.deepStrictEqual(findInjections("no injection {here}", "@{"), { injections: [] });
});

Deno.test("findInjections names where an injection opens and never closes; the ones before it are kept", () => {
  assert.deepStrictEqual(findInjections("@{a} then @{b{c}", "@{"), {
    injections: [{ content: "a", start: 0, end: 4 }],
    unclosedAt: 10,
  });
});

Deno.test("readWorkspacePath: a relative path is looked up under each root in turn; a root's own files only", async () => {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-gemini-inj-"));
  const project = `${root}/project`;
  const cwd = `${project}/sub`;
  await platform.fs.mkdir(cwd);
  await platform.fs.writeTextFile(`${project}/shared.md`, "FROM-PROJECT");
  await platform.fs.writeTextFile(`${project}/both.md`, "PROJECT-BOTH");
  await platform.fs.writeTextFile(`${cwd}/both.md`, "CWD-BOTH");
  await platform.fs.writeTextFile(`${root}/outside.md`, "OUTSIDE");
  const read = (p: string) => readWorkspacePath(platform.fs, p, [cwd, project]);
  assert.deepStrictEqual(await read("both.md"), { ok: true, text: "CWD-BOTH", notes: [] });
  assert.deepStrictEqual(await read("shared.md"), { ok: true, text: "FROM-PROJECT", notes: [] });
  assert.deepStrictEqual(await read(`${project}/shared.md`), { ok: true, text: "FROM-PROJECT", notes: [] });
  // `..` out of every root, relative or absolute, is not read.
  assert.deepStrictEqual(await read("../../outside.md"), {
    ok: false,
    error: "path not found in the workspace: ../../outside.md",
  });
  assert.deepStrictEqual(await read(`${root}/outside.md`), {
    ok: false,
    error: `absolute path is outside the workspace: ${root}/outside.md`,
  });
  assert.deepStrictEqual(await read(""), { ok: false, error: "no path given" });
});
