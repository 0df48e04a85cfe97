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

// Low item of issue #13: read_file read the whole file whatever `limit` said (800 MB → 2.7 GB RSS).
Deno.test("read_file() streams: an 800 MB file costs about what a small one does in peak memory", async () => {
  const box = await makeWorkspace();
  try {
    const big = `${box.ws}/big.log`;
    const head = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    await platform.fs.writeTextFile(big, head);
    // Sparse: the rest reads as zeros without using the disk (one endless line after the text).
    await Deno.truncate(big, 800 * 1024 * 1024);
    await platform.fs.writeTextFile(`${box.ws}/small.log`, head);
    const measure = async (path: string) => {
      const script = new URL("./_read_file_rss.ts", import.meta.url).pathname;
      const run = await new Deno.Command(Deno.execPath(), { args: ["run", "-A", script, path, "4990", "3"] })
        .output();
      assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
      return JSON.parse(new TextDecoder().decode(run.stdout));
    };
    const small = await measure(`${box.ws}/small.log`);
    const large = await measure(big);
    assert.deepStrictEqual([small.first, large.first, large.last], [
      "  4990\tline 4990",
      "  4990\tline 4990",
      "(showing lines 4990-4992; the file has more than 5000 lines)",
    ]);
    // Peak RSS within 96 MiB of the small read's: the whole file would add 800 MiB and more.
    assert.ok(large.peakKb - small.peakKb < 96 * 1024, `peak ${large.peakKb} kB vs ${small.peakKb} kB`);
  } finally {
    await removeWorkspace(box);
  }
});
