import assert from "node:assert/strict";
import { findInjections, readWorkspacePath, type ShellRunner } from "../../lib/skills/gemini_injections.ts";
import { expandGeminiPrompt } from "../../lib/skills/gemini_command.ts";
import { singleQuoted as shellQuoted } from "../../lib/shared/mod.ts";
import { OutsideRootsError, platform, readRegularPrefixWithin } from "../../lib/platform/mod.ts";

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

Deno.test("expandGeminiPrompt: !{…} is replaced by its output, {{args}} inside it one quoted word and raw outside; a failure gets Gemini's status line", async () => {
  const ran: string[] = [];
  const run: ShellRunner = (command) => {
    ran.push(command);
    if (command === "false") return Promise.resolve({ ok: true, output: "", exitCode: 1 });
    if (command === "sleep 9") {
      return Promise.resolve({ ok: true, output: "", exitCode: null, timedOut: true });
    }
    return Promise.resolve({ ok: true, output: `OUT<${command}>`, exitCode: 0 });
  };
  const toml = 'prompt = """\nFind {{args}}:\n!{grep -r {{args}} .}\n!{ }\n!{false}\n!{sleep 9}\n"""\n';
  const got = await expandGeminiPrompt("grep-code", toml, "It's complicated", { run });
  assert.deepStrictEqual(ran, ["grep -r 'It'\\''s complicated' .", "false", "sleep 9"]);
  assert.equal(
    got.text,
    "Find It's complicated:\nOUT<grep -r 'It'\\''s complicated' .>\n\n\n[Shell command 'false' exited with code 1]\n" +
      "\n[Shell command 'sleep 9' timed out]\n",
  );
  assert.deepStrictEqual(got.warnings, []);
  assert.equal(shellQuoted("a'b"), "'a'\\''b'");
});

Deno.test("expandGeminiPrompt: a !{…} not approved stays as written, named; none in a file's text ever runs", async () => {
  const ran: string[] = [];
  const run: ShellRunner = (command) => {
    ran.push(command);
    return Promise.resolve({ ok: false, reason: "not approved" });
  };
  const read = (p: string) =>
    Promise.resolve({ ok: true as const, text: `FILE(${p}) !{rm -rf /} {{args}}`, notes: [] });
  const got = await expandGeminiPrompt("x", 'prompt = "A @{f} B !{git diff} {{args}}"\n', "ARG", {
    read,
    run,
  });
  assert.deepStrictEqual(ran, ["git diff"]);
  assert.equal(got.text, "A FILE(f) !{rm -rf /} {{args}} B !{git diff} ARG");
  assert.deepStrictEqual(got.warnings, [
    "Gemini CLI command /x: !{git diff} not run: not approved; it is sent as written",
  ]);
  const unclosed = await expandGeminiPrompt("y", 'prompt = "C !{echo {"\n', "", { run });
  assert.equal(unclosed.text, "C !{echo {");
  assert.match(unclosed.warnings[0], /\/y: the `!\{` at offset 2 is never closed/);
  assert.deepStrictEqual(ran, ["git diff"]);
  // No runner (no session shell): not run, named.
  const none = await expandGeminiPrompt("z", 'prompt = "!{ls}"\n', "");
  assert.deepStrictEqual(none, {
    text: "!{ls}",
    warnings: [
      "Gemini CLI command /z: !{ls} not run: nothing runs commands here (a preview runs none); it is sent as written",
    ],
  });
});

Deno.test("expandGeminiPrompt: arguments holding `$&`, `$'`, `` $` `` or `$$` are text, inside !{…} and outside", async () => {
  const ran: string[] = [];
  const run: ShellRunner = (
    command,
  ) => (ran.push(command), Promise.resolve({ ok: true, output: "", exitCode: 0 }));
  const args = "x$& $' $` $$";
  const got = await expandGeminiPrompt(
    "g",
    'prompt = "Review {{args}} carefully !{grep -rn {{args}} src}"\n',
    args,
    { run },
  );
  assert.equal(got.text, `Review ${args} carefully `);
  assert.deepStrictEqual(ran, [`grep -rn ${shellQuoted(args)} src`]);
  assert.equal(shellQuoted(args), "'x$& $'\\'' $` $$'");
});

Deno.test("readWorkspacePath: a FIFO is refused at once, alone or in a folder, never waited on", async () => {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-gemini-fifo-"));
  await platform.fs.mkdir(`${root}/d`);
  await platform.fs.writeTextFile(`${root}/d/a.md`, "A");
  const made = await new Deno.Command("mkfifo", { args: [`${root}/d/pipe`] }).output();
  assert.equal(made.code, 0);
  assert.deepStrictEqual(await readWorkspacePath(platform.fs, "d/pipe", [root]), {
    ok: false,
    error: "cannot be read (not a regular file (a FIFO))",
  });
  const dir = await readWorkspacePath(platform.fs, "d", [root]);
  assert.deepStrictEqual(dir, {
    ok: true,
    text:
      "--- Start of content for directory: d ---\n--- a.md ---\nA\n--- End of content for directory: d ---",
    notes: ["@{d/pipe}: cannot be read (not a regular file (a FIFO))"],
  });
});

Deno.test("readRegularPrefixWithin judges the opened file, not the path: a symlink out is refused with no check before it", async () => {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-within-"));
  await platform.fs.mkdir(`${root}/ws`);
  await platform.fs.writeTextFile(`${root}/secret`, "SECRET");
  await platform.fs.writeTextFile(`${root}/ws/big`, "x".repeat(100));
  await platform.fs.symlink(`${root}/secret`, `${root}/ws/link`);
  await platform.fs.symlink(`${root}`, `${root}/ws/up`);
  assert.throws(() => readRegularPrefixWithin(`${root}/ws/link`, [`${root}/ws`], 10), OutsideRootsError);
  assert.throws(() => readRegularPrefixWithin(`${root}/ws/up/secret`, [`${root}/ws`], 10), OutsideRootsError);
  const read = readRegularPrefixWithin(`${root}/ws/big`, [`${root}/ws`], 10);
  assert.deepStrictEqual({
    text: new TextDecoder().decode(read.bytes),
    size: read.size,
    realPath: read.realPath,
  }, {
    text: "xxxxxxxxxx",
    size: 100,
    realPath: `${root}/ws/big`,
  });
  // A sibling whose name merely starts with the root's is not under it.
  await platform.fs.mkdir(`${root}/ws2`);
  await platform.fs.writeTextFile(`${root}/ws2/x`, "SIBLING");
  assert.throws(() => readRegularPrefixWithin(`${root}/ws2/x`, [`${root}/ws`], 10), OutsideRootsError);
  // The root itself written with a trailing slash holds the same files.
  assert.equal(readRegularPrefixWithin(`${root}/ws/big`, [`${root}/ws/`], 1).bytes.length, 1);
});
