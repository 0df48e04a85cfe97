import assert from "node:assert/strict";
import { platform, runCommand } from "../../lib/platform/mod.ts";
import type { ToolResult } from "../../lib/shared/mod.ts";
import { call, makeWorkspace, readIfExists, removeWorkspace, type Sandbox, toolsFor } from "./_workspace.ts";

// Issue #13 item 6: a FIFO in the workspace hung grep, read_file and edit_file forever, Ctrl-C
// included. Non-regular files are skipped in walks and refused by name; every file operation stops
// on the tool's AbortSignal. A hang fails the test (after 20 s) instead of stalling the suite.

async function mkfifo(path: string): Promise<void> {
  const result = await runCommand(platform, { cmd: ["mkfifo", path], env: { PATH: "/usr/bin:/bin" } });
  assert.equal(result.code, 0, result.stderr);
}

/** Resolves to the call's outcome, or "hung" when it has not settled in 20 s (the old behaviour). */
async function settles<T>(work: Promise<T>): Promise<T | "hung"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"hung">((resolve) => timer = setTimeout(() => resolve("hung"), 20_000));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opening the FIFO for writing releases any reader a failed run left blocked on it. */
async function unblock(fifo: string): Promise<void> {
  await runCommand(platform, { cmd: ["/bin/sh", "-c", `: > '${fifo}' &`], env: {}, timeoutMs: 2000 });
}

async function withFifo(test: (box: Sandbox, fifo: string) => Promise<void>): Promise<void> {
  const box = await makeWorkspace();
  const fifo = `${box.ws}/pipe`;
  await mkfifo(fifo);
  try {
    await test(box, fifo);
  } finally {
    await unblock(fifo);
    await removeWorkspace(box);
  }
}

Deno.test("read_file() refuses a FIFO by name instead of waiting for a writer", async () => {
  await withFifo(async (box) => {
    const { read_file } = toolsFor(box);
    const got = await settles(call(read_file, box, { path: "pipe" }));
    assert.deepStrictEqual(got, {
      approval: { kind: "none" },
      result: { status: "error", output: 'Cannot read "pipe": not a regular file (a FIFO)' },
    });
  });
});

Deno.test("edit_file() refuses a FIFO and write_file will not replace one", async () => {
  await withFifo(async (box) => {
    const { edit_file, write_file } = toolsFor(box);
    const edit = await settles(call(edit_file, box, { path: "pipe", old_string: "a", new_string: "b" }));
    const write = await settles(call(write_file, box, { path: "pipe", content: "x" }));
    assert.deepStrictEqual([edit, write].map((got) => got === "hung" ? got : got.result), [
      { status: "error", output: 'Cannot edit "pipe": not a regular file (a FIFO)' },
      { status: "error", output: 'Cannot write "pipe": not a regular file' },
    ]);
    assert.equal((await platform.fs.lstat(`${box.ws}/pipe`))?.isFile, false);
  });
});

Deno.test("grep() skips a FIFO in the tree and refuses one named as its path", async () => {
  await withFifo(async (box) => {
    const { grep } = toolsFor(box);
    const tree = await settles(call(grep, box, { pattern: "Sample" }));
    const named = await settles(call(grep, box, { pattern: "x", path: "pipe" }));
    assert.notEqual(tree, "hung");
    assert.match((tree as { result: ToolResult }).result.output, /^README\.md:1: # Sample/);
    assert.deepStrictEqual((named as { result: ToolResult }).result, {
      status: "error",
      output: 'Cannot search "pipe": not a regular file',
    });
  });
});

Deno.test("read_file(), grep(), glob() and list_dir() stop with status aborted when the signal is aborted", async () => {
  const box = await makeWorkspace();
  try {
    const tools = toolsFor(box);
    const controller = new AbortController();
    controller.abort();
    const ctx = { signal: controller.signal };
    const results = [
      (await call(tools.read_file, box, { path: "README.md" }, ctx)).result.status,
      (await call(tools.grep, box, { pattern: "x" }, ctx)).result.status,
      (await call(tools.glob, box, { pattern: "**/*" }, ctx)).result.status,
      (await call(tools.list_dir, box, {}, ctx)).result.status,
      (await call(tools.edit_file, box, { path: "README.md", old_string: "S", new_string: "T" }, ctx)).result
        .status,
      (await call(tools.write_file, box, { path: "new.txt", content: "x" }, ctx)).result.status,
    ];
    assert.deepStrictEqual(results, ["aborted", "aborted", "aborted", "aborted", "aborted", "aborted"]);
    assert.equal(await readIfExists(`${box.ws}/new.txt`), null);
  } finally {
    await removeWorkspace(box);
  }
});

Deno.test("read_file() refuses a device by name", async () => {
  const box = await makeWorkspace();
  try {
    const { read_file } = toolsFor(box, { profile: { sandboxMode: "danger-full-access" } });
    const got = await settles(call(read_file, box, { path: "/dev/zero" }));
    assert.deepStrictEqual((got as { result: ToolResult }).result, {
      status: "error",
      output: 'Cannot read "/dev/zero": not a regular file (a device)',
    });
  } finally {
    await removeWorkspace(box);
  }
});

// Low item: a NUL or newline in a path was accepted and wrote another file.
Deno.test("write_file(), read_file() and shell() reject a path holding a NUL, newline or carriage return", async () => {
  const box = await makeWorkspace();
  try {
    const tools = toolsFor(box);
    const bad = [
      [tools.write_file, { path: "notes.md\nx", content: "x" }, "write_file"],
      [tools.write_file, { path: "notes.md\0.txt", content: "x" }, "write_file"],
      [tools.read_file, { path: "README.md\r" }, "read_file"],
      [tools.shell, { command: "ls", workdir: "src\n" }, "shell"],
    ] as const;
    for (const [tool, args, name] of bad) {
      const field = name === "shell" ? "workdir" : "path";
      assert.throws(
        () => tool.parseArguments(args),
        new RegExp(
          `^TrellisError: Cannot parse arguments for "${name}": ${field}: must not contain a NUL, newline or carriage return$`,
        ),
      );
    }
    assert.deepStrictEqual(
      (await platform.fs.readDir(box.ws)).map((e) => e.name).filter((n) => n.startsWith("notes")),
      [],
    );
  } finally {
    await removeWorkspace(box);
  }
});
