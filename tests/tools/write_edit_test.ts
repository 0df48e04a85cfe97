import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { call, makeWorkspace, readIfExists, removeWorkspace, toolsFor } from "./_workspace.ts";

Deno.test("write_file() creates the file and its parents when the path is in the workspace", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box);
  const got = await call(write_file, box, { path: "new/dir/file.txt", content: "hi\n" });
  assert.deepStrictEqual(got, {
    approval: { kind: "none" },
    result: { status: "success", output: `Created ${box.ws}/new/dir/file.txt (3 bytes)` },
  });
  assert.equal(await readIfExists(`${box.ws}/new/dir/file.txt`), "hi\n");
  await removeWorkspace(box);
});

Deno.test("write_file() overwrites an existing file and keeps its mode", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box);
  await platform.fs.chmod(`${box.ws}/README.md`, 0o600);
  const got = await call(write_file, box, { path: "README.md", content: "new" });
  assert.deepStrictEqual(got.result, {
    status: "success",
    output: `Overwrote ${box.ws}/README.md (3 bytes)`,
  });
  assert.equal((await platform.fs.stat(`${box.ws}/README.md`))!.mode & 0o777, 0o600);
  await removeWorkspace(box);
});

Deno.test("write_file() writes into the temp root without approval when it is a writable root", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box);
  const got = await call(write_file, box, { path: `${box.tmp}/scratch.txt`, content: "x" });
  assert.deepStrictEqual(got.approval, { kind: "none" });
  assert.equal(await readIfExists(`${box.tmp}/scratch.txt`), "x");
  await removeWorkspace(box);
});

Deno.test("write_file() needs approval for every write when the sandbox mode is read-only", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box, { profile: { sandboxMode: "read-only" } });
  const got = await call(write_file, box, { path: "README.md", content: "changed" });
  assert.deepStrictEqual(got, {
    approval: {
      kind: "required",
      reason: `writing "${box.ws}/README.md" in read-only sandbox mode`,
      subject: { kind: "path", path: `${box.ws}/README.md`, access: "write" },
    },
    result: {
      status: "denied",
      output:
        `Cannot write "README.md": writing "${box.ws}/README.md" in read-only sandbox mode requires approval`,
    },
  });
  assert.match((await readIfExists(`${box.ws}/README.md`))!, /^# Sample workspace/);
  await removeWorkspace(box);
});

Deno.test("write_file() needs approval inside the workspace when the approval policy is untrusted", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box, { profile: { approvalPolicy: "untrusted" } });
  const args = write_file.parseArguments({ path: "a.txt", content: "" });
  assert.deepStrictEqual(write_file.approval(args, { cwd: box.ws }), {
    kind: "required",
    reason: `writing "${box.ws}/a.txt" under approval policy untrusted`,
    policyOnly: true,
    subject: { kind: "path", path: `${box.ws}/a.txt`, access: "write" },
  });
  await removeWorkspace(box);
});

Deno.test("write_file() writes anywhere without approval when the sandbox mode is danger-full-access", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box, { profile: { sandboxMode: "danger-full-access" } });
  const got = await call(write_file, box, { path: "../outside/new.txt", content: "ok" });
  assert.deepStrictEqual(got.approval, { kind: "none" });
  assert.equal(await readIfExists(`${box.outside}/new.txt`), "ok");
  await removeWorkspace(box);
});

Deno.test("edit_file() replaces a unique occurrence when old_string occurs once", async () => {
  const box = await makeWorkspace();
  const { edit_file } = toolsFor(box);
  const got = await call(edit_file, box, {
    path: "src/main.ts",
    old_string: '"world"',
    new_string: '"Trellis"',
  });
  assert.deepStrictEqual(got, {
    approval: { kind: "none" },
    result: { status: "success", output: `Edited ${box.ws}/src/main.ts (1 replacement)` },
  });
  assert.match((await readIfExists(`${box.ws}/src/main.ts`))!, /greet\("Trellis"\)/);
  await removeWorkspace(box);
});

Deno.test("edit_file() reports an error and leaves the file when old_string is missing or ambiguous", async () => {
  const box = await makeWorkspace();
  const { edit_file } = toolsFor(box);
  const before = await readIfExists(`${box.ws}/src/util/strings.ts`);
  const missing = await call(edit_file, box, {
    path: "src/util/strings.ts",
    old_string: "nope",
    new_string: "x",
  });
  const twice = await call(edit_file, box, {
    path: "src/util/strings.ts",
    old_string: "string",
    new_string: "S",
  });
  assert.deepStrictEqual([missing.result, twice.result], [
    { status: "error", output: 'Cannot edit "src/util/strings.ts": old_string not found' },
    {
      status: "error",
      output:
        'Cannot edit "src/util/strings.ts": old_string occurs 4 times; add surrounding context to make it unique or set replace_all',
    },
  ]);
  assert.equal(await readIfExists(`${box.ws}/src/util/strings.ts`), before);
  await removeWorkspace(box);
});

Deno.test("edit_file() replaces every occurrence when replace_all is true", async () => {
  const box = await makeWorkspace();
  const { edit_file } = toolsFor(box);
  const got = await call(edit_file, box, {
    path: "src/util/strings.ts",
    old_string: ": string",
    new_string: ": Text",
    replace_all: true,
  });
  assert.deepStrictEqual(got.result, {
    status: "success",
    output: `Edited ${box.ws}/src/util/strings.ts (4 replacements)`,
  });
  assert.doesNotMatch((await readIfExists(`${box.ws}/src/util/strings.ts`))!, /: string/);
  await removeWorkspace(box);
});

Deno.test("edit_file() keeps `$&` literally when new_string contains replacement patterns", async () => {
  const box = await makeWorkspace();
  const { edit_file } = toolsFor(box);
  await call(edit_file, box, { path: "docs/notes.txt", old_string: "done", new_string: "$& $1 $$" });
  assert.match((await readIfExists(`${box.ws}/docs/notes.txt`))!, /^\$& \$1 \$\$: nothing else$/m);
  await removeWorkspace(box);
});

Deno.test("edit_file() reports an error when the file does not exist", async () => {
  const box = await makeWorkspace();
  const { edit_file } = toolsFor(box);
  const got = await call(edit_file, box, { path: "nope.ts", old_string: "a", new_string: "b" });
  assert.deepStrictEqual(got.result, {
    status: "error",
    output: 'Cannot edit "nope.ts": no such file or directory',
  });
  await removeWorkspace(box);
});

Deno.test("write_file() through an editor: the diff's old text is the editor's unsaved buffer, else the disk; a new file has none (#25 item 1)", async () => {
  const box = await makeWorkspace();
  await platform.fs.writeTextFile(`${box.ws}/notes.md`, "on disk\n");
  await platform.fs.writeTextFile(`${box.ws}/plain.md`, "plain on disk\n");
  const changes: { path: string; oldText: string | null; newText: string }[] = [];
  const written: [string, string][] = [];
  const buffers: Record<string, string> = { [`${box.ws}/notes.md`]: "unsaved buffer\n" };
  const { write_file } = toolsFor(box, {
    editor: {
      readTextFile: (path) => Promise.resolve(buffers[path] ?? null),
      writeTextFile: (path, content) => {
        written.push([path, content]);
        return Promise.resolve();
      },
      fileChanged: ({ path, oldText, newText }) => changes.push({ path, oldText, newText }),
    },
  });
  for (const path of ["notes.md", "plain.md", "fresh.md"]) {
    assert.equal((await call(write_file, box, { path, content: `${path} new\n` })).result.status, "success");
  }
  assert.deepStrictEqual(changes, [
    { path: `${box.ws}/notes.md`, oldText: "unsaved buffer\n", newText: "notes.md new\n" },
    { path: `${box.ws}/plain.md`, oldText: "plain on disk\n", newText: "plain.md new\n" },
    { path: `${box.ws}/fresh.md`, oldText: null, newText: "fresh.md new\n" },
  ]);
  // Written through the editor (its buffer and the disk), never around it.
  assert.deepStrictEqual(written.map(([p]) => p), [
    `${box.ws}/notes.md`,
    `${box.ws}/plain.md`,
    `${box.ws}/fresh.md`,
  ]);
  assert.equal(await readIfExists(`${box.ws}/notes.md`), "on disk\n");
  await removeWorkspace(box);
});
