import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { call, makeWorkspace, removeWorkspace, toolsFor } from "./_workspace.ts";

Deno.test("read_file() returns cat -n numbered lines when the file is inside the workspace", async () => {
  const box = await makeWorkspace();
  const { read_file } = toolsFor(box);
  const got = await call(read_file, box, { path: "src/util/strings.ts", offset: 2, limit: 2 });
  assert.deepStrictEqual(got, {
    approval: { kind: "none" },
    result: {
      status: "success",
      output: "     2\t  return `Hello, ${name}!`;\n     3\t}\n(showing lines 2-3 of 7)",
    },
  });
  await removeWorkspace(box);
});

Deno.test("read_file() reads the whole file when no offset or limit is given", async () => {
  const box = await makeWorkspace();
  const { read_file } = toolsFor(box);
  const got = await call(read_file, box, JSON.stringify({ path: `${box.ws}/docs/notes.txt` }));
  assert.deepStrictEqual(got.result, {
    status: "success",
    output: "     1\tTODO: write more docs\n     2\ttodo: lower case todo\n     3\tdone: nothing else",
  });
  await removeWorkspace(box);
});

Deno.test("read_file() reports an error output when the file does not exist or is binary", async () => {
  const box = await makeWorkspace();
  const { read_file } = toolsFor(box);
  await platform.fs.writeFileAtomic(`${box.ws}/blob.bin`, new Uint8Array([1, 0, 2]));
  assert.deepStrictEqual((await call(read_file, box, { path: "missing.txt" })).result, {
    status: "error",
    output: 'Cannot read "missing.txt": no such file or directory',
  });
  assert.deepStrictEqual((await call(read_file, box, { path: "blob.bin" })).result, {
    status: "error",
    output: 'Cannot read "blob.bin": binary file',
  });
  assert.deepStrictEqual((await call(read_file, box, { path: "src" })).result, {
    status: "error",
    output: 'Cannot read "src": is a directory',
  });
  await removeWorkspace(box);
});

Deno.test("read_file() needs approval and is denied at run time when the path is outside the roots", async () => {
  const box = await makeWorkspace();
  const { read_file } = toolsFor(box);
  const got = await call(read_file, box, { path: "../outside/secret.txt" });
  assert.deepStrictEqual(got, {
    approval: {
      kind: "required",
      reason: `reading "${box.outside}/secret.txt" outside the workspace and readable roots`,
      subject: { kind: "path", path: `${box.outside}/secret.txt`, access: "read" },
    },
    result: {
      status: "denied",
      output:
        `Cannot read "../outside/secret.txt": reading "${box.outside}/secret.txt" outside the workspace and readable roots requires approval`,
    },
  });
  const escalated = await call(read_file, box, { path: "../outside/secret.txt" }, { escalated: true });
  assert.deepStrictEqual(escalated.result, { status: "success", output: "     1\tsecret" });
  await removeWorkspace(box);
});

Deno.test("read_file() reads without approval when the path is in an extra readable root", async () => {
  const box = await makeWorkspace();
  const { read_file } = toolsFor(box, { profile: { readableRoots: [box.outside] } });
  const got = await call(read_file, box, { path: `${box.outside}/secret.txt` });
  assert.deepStrictEqual(got, {
    approval: { kind: "none" },
    result: { status: "success", output: "     1\tsecret" },
  });
  await removeWorkspace(box);
});

Deno.test("read_file() cuts head and tail with a note when the output is over budget", async () => {
  const box = await makeWorkspace();
  const { read_file } = toolsFor(box, { outputMaxBytes: 200 });
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
  await platform.fs.writeTextFile(`${box.ws}/long.txt`, lines);
  const { result } = await call(read_file, box, { path: "long.txt" });
  assert.equal(result.status, "success");
  assert.match(result.output, /^ {5}1\tline 1\n/);
  assert.match(result.output, /\n\[… \d+ bytes omitted …\]\n/);
  assert.match(result.output, /line 100$/);
  await removeWorkspace(box);
});
