import assert from "node:assert/strict";
import { detectSandbox, platform } from "../../lib/platform/mod.ts";
import type { ToolResult } from "../../lib/shared/mod.ts";
import { call, makeWorkspace, readIfExists, removeWorkspace, toolsFor } from "./_workspace.ts";

const sandbox = await detectSandbox(platform);

// No test here is skipped without bwrap: they fail, and this one says why (CI installs bubblewrap).
Deno.test("the sandbox these tests run in is available (bwrap: apt-get install bubblewrap)", () => {
  assert.deepEqual(sandbox.available ? "available" : sandbox.reason, "available");
});

function normalized(result: ToolResult): ToolResult {
  return { ...result, output: result.output.replace(/Wall time: [\d.]+ seconds/, "Wall time: X seconds") };
}

/** Pids of live processes whose command line contains `marker` (visible from outside any pid namespace). */
async function processesWith(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await platform.fs.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = await platform.fs.readTextFile(`/proc/${entry.name}/cmdline`);
      if (cmdline.includes(marker)) found.push(entry.name);
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** Killing is asynchronous: give the kernel a moment to reap, then report who is left. */
async function survivors(marker: string): Promise<string[]> {
  for (let i = 0; i < 50; i++) {
    if ((await processesWith(marker)).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  return await processesWith(marker);
}

function uniqueSleep(): string {
  return `30.${Math.floor(Math.random() * 1e9)}`;
}

Deno.test({
  name: "shell() runs the command under bwrap in the workspace and reports exit code and output",
  async fn() {
    const box = await makeWorkspace();
    const { shell } = toolsFor(box, { sandbox });
    const got = await call(shell, box, { command: "echo hi > out.txt && cat out.txt && pwd" });
    assert.deepStrictEqual({ ...got, result: normalized(got.result) }, {
      approval: { kind: "none" },
      result: { status: "success", output: `Exit code: 0\nWall time: X seconds\nOutput:\nhi\n${box.ws}\n` },
    });
    assert.equal(await readIfExists(`${box.ws}/out.txt`), "hi\n");
    await removeWorkspace(box);
  },
});

Deno.test({
  name: "shell() fails and leaves the target untouched when a sandboxed command writes outside the roots",
  async fn() {
    const box = await makeWorkspace();
    const { shell } = toolsFor(box, { sandbox });
    const got = await call(shell, box, { command: `echo pwned > ${box.outside}/secret.txt` });
    assert.equal(got.result.status, "error");
    assert.match(got.result.output, /^Exit code: 1\n/);
    assert.match(got.result.output, /Read-only file system/);
    assert.match(got.result.output, /\[the command ran in a sandbox/);
    assert.equal(await readIfExists(`${box.outside}/secret.txt`), "secret\n");
    await removeWorkspace(box);
  },
});

Deno.test({
  name: "shell() cannot write in the workspace when the sandbox mode is read-only",
  async fn() {
    const box = await makeWorkspace();
    const { shell } = toolsFor(box, { sandbox, profile: { sandboxMode: "read-only" } });
    const got = await call(shell, box, { command: "echo x > README.md" });
    assert.equal(got.result.status, "error");
    assert.match((await readIfExists(`${box.ws}/README.md`))!, /^# Sample workspace/);
    await removeWorkspace(box);
  },
});

Deno.test({
  name: "shell() unshares the network unless network_access is true",
  async fn() {
    const box = await makeWorkspace();
    const command = "readlink /proc/self/ns/net";
    const host = await call(
      toolsFor(box, { sandbox, profile: { sandboxMode: "danger-full-access" } }).shell,
      box,
      {
        command,
      },
    );
    const isolated = await call(toolsFor(box, { sandbox }).shell, box, { command });
    const allowed = await call(toolsFor(box, { sandbox, profile: { networkAccess: true } }).shell, box, {
      command,
    });
    const ns = (r: ToolResult) => r.output.split("Output:\n")[1];
    assert.match(ns(host.result), /^net:\[\d+\]\n$/);
    assert.notEqual(ns(isolated.result), ns(host.result));
    assert.equal(ns(allowed.result), ns(host.result));
    await removeWorkspace(box);
  },
});

for (const mode of ["workspace-write", "danger-full-access"] as const) {
  Deno.test({
    name: `shell() kills the whole process group when the timeout expires (${mode})`,
    async fn() {
      const box = await makeWorkspace();
      const { shell } = toolsFor(box, { sandbox, profile: { sandboxMode: mode } });
      const marker = uniqueSleep();
      const got = await call(shell, box, {
        command: `sleep ${marker} & echo started; wait`,
        timeout_ms: 500,
      });
      assert.deepStrictEqual(got.result, {
        status: "error",
        output: "Command timed out after 500 ms and was killed\nOutput:\nstarted\n",
      });
      assert.deepStrictEqual(await survivors(marker), []);
      await removeWorkspace(box);
    },
  });

  Deno.test({
    name: `shell() kills the whole process group and reports aborted when the signal aborts (${mode})`,
    async fn() {
      const box = await makeWorkspace();
      const { shell } = toolsFor(box, { sandbox, profile: { sandboxMode: mode } });
      const marker = uniqueSleep();
      const controller = new AbortController();
      const running = call(shell, box, { command: `sleep ${marker} & wait` }, { signal: controller.signal });
      while ((await processesWith(marker)).length === 0) await new Promise((r) => setTimeout(r, 20));
      controller.abort();
      const got = await running;
      assert.equal(got.result.status, "aborted");
      assert.match(got.result.output, /^Command aborted after [\d.]+ seconds\n/);
      assert.deepStrictEqual(await survivors(marker), []);
      await removeWorkspace(box);
    },
  });
}

Deno.test("shell() needs approval and is denied unescalated when the sandbox is unavailable", async () => {
  const box = await makeWorkspace();
  const { shell } = toolsFor(box, { sandbox: { available: false, reason: "bwrap not found" } });
  const denied = await call(shell, box, { command: "echo hi" });
  const escalated = await call(shell, box, { command: "echo hi" }, { escalated: true });
  // The approval request says plainly that the command would run without a sandbox (#13 item 2).
  const approval = {
    kind: "required",
    reason: "sandbox unavailable (bwrap not found): the command would run without one",
    subject: { kind: "command", command: "echo hi", cwd: box.ws, sandbox: "unavailable" },
  };
  assert.deepStrictEqual([denied, { ...escalated, result: normalized(escalated.result) }], [
    {
      approval,
      result: { status: "denied", output: 'Cannot run "echo hi": sandbox unavailable (bwrap not found)' },
    },
    {
      approval,
      result: { status: "success", output: "Exit code: 0\nWall time: X seconds\nOutput:\nhi\n" },
    },
  ]);
  await removeWorkspace(box);
});

Deno.test("shell() needs approval under policy untrusted unless the command is known safe", () => {
  const box = { root: "/", ws: "/", outside: "/", tmp: "/" };
  const { shell } = toolsFor(box, {
    sandbox: { available: true, bwrap: "/usr/bin/bwrap", flags: [] },
    profile: { approvalPolicy: "untrusted" },
  });
  const need = (command: string) => shell.approval(shell.parseArguments({ command }), { cwd: "/" });
  assert.deepStrictEqual([need("git status && ls -la | wc -l"), need("rm -rf build")], [
    { kind: "none" },
    {
      kind: "required",
      reason: "approval policy untrusted: command is not known to be read-only",
      policyOnly: true,
      // Approving it runs it inside the sandbox all the same (#13 item 2).
      subject: { kind: "command", command: "rm -rf build", cwd: "/", sandbox: "inside" },
    },
  ]);
});

Deno.test("shell() reports a non-zero exit as an error and runs in workdir", async () => {
  const box = await makeWorkspace();
  const { shell } = toolsFor(box, { profile: { sandboxMode: "danger-full-access" } });
  const failed = await call(shell, box, { command: "pwd; echo oops >&2; exit 3", workdir: "src" });
  const missing = await call(shell, box, { command: "pwd", workdir: "nope" });
  assert.deepStrictEqual([normalized(failed.result), missing.result], [
    { status: "error", output: `Exit code: 3\nWall time: X seconds\nOutput:\n${box.ws}/src\noops\n` },
    { status: "error", output: 'Cannot run in "nope": not a directory' },
  ]);
  await removeWorkspace(box);
});
