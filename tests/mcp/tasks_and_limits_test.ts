import assert from "node:assert/strict";
import { MAX_STDERR_LOG_BYTES, RotatingLog, stderrLogPath } from "../../lib/mcp/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { EVERYTHING, fixture, runContext, startRuntime, stdio } from "./_helpers.ts";

const TASKS = fixture("task_server.mjs");

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test("a tool whose execution.taskSupport is required runs as a task: create, poll, result (MCP 2025-11-25)", async () => {
  const { runtime } = await startRuntime([stdio("tk", [TASKS])]);
  try {
    await runtime.awaitStartup({ graceMs: 30_000 });
    const step = runtime.captureStep();
    const slow = step.tools.find((t) => t.name === "mcp__tk__slow_task")!;
    const { ctx, events } = runContext();
    const result = await slow.run({ ms: 150 }, ctx);
    assert.deepStrictEqual([result.status, result.output], ["success", "task done after 150 ms"]);
    const progress = events.flatMap((e) => e.type === "mcp.tool_progress" ? [e.message ?? ""] : []);
    assert.match(progress[0], /^task \S+ working$/);
    assert.ok(progress.some((m) => m === "working: halfway"), progress.join("\n"));
    assert.ok(progress.some((m) => m.startsWith("completed")), progress.join("\n"));
    const optional = await step.tools.find((t) => t.name === "mcp__tk__optional_task")!.run({}, ctx);
    assert.deepStrictEqual([optional.status, optional.output], ["success", "optional as task"]);
    step.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("an aborted task call sends tasks/cancel; tool_max_sec ends a task however long it works (#13)", async () => {
  const config = stdio("tk", [TASKS], { tool_max_sec: 0.6 });
  const { runtime, home } = await startRuntime([config]);
  try {
    await runtime.awaitStartup({ graceMs: 30_000 });
    const step = runtime.captureStep();
    const endless = step.tools.find((t) => t.name === "mcp__tk__endless_task")!;
    const capped = await endless.run({}, runContext().ctx);
    assert.equal(capped.status, "error");
    assert.match(capped.output, /failed: exceeded tool_max_sec \(0\.6 s\)/);
    const log = stderrLogPath(home, "tk");
    await waitFor(
      async () => /task cancelled/.test(await platform.fs.readTextFile(log).catch(() => "")),
      "cancel",
    );
    const abort = new AbortController();
    const { ctx } = runContext("call-2");
    const running = endless.run({}, { ...ctx, signal: abort.signal });
    setTimeout(() => abort.abort(), 200);
    assert.equal((await running).status, "aborted");
    await waitFor(
      async () => (await platform.fs.readTextFile(log)).match(/task cancelled/g)!.length === 2,
      "second cancel",
    );
    step.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("progress notifications no longer keep a call alive past tool_max_sec (#13)", async () => {
  // 10 × 150 ms of progress under a 0.3 s idle timeout is alive throughout; the 0.8 s cap ends it.
  const config = stdio("fx", [fixture("fixture_server.mjs")], { tool_timeout_sec: 0.3, tool_max_sec: 0.8 });
  const { runtime } = await startRuntime([config]);
  try {
    await runtime.awaitStartup({ graceMs: 30_000 });
    const step = runtime.captureStep();
    const { ctx, events } = runContext();
    const result = await step.tools.find((t) => t.name === "mcp__fx__progress")!.run(
      { steps: 10, ms: 150 },
      ctx,
    );
    assert.equal(result.status, "error");
    assert.match(result.output, /exceeded tool_max_sec \(0\.8 s\)/);
    assert.ok(events.filter((e) => e.type === "mcp.tool_progress").length >= 3);
    step.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("a stdio server's stderr log is rotated past 5 MiB, one old file kept (#13)", async () => {
  const home = await platform.fs.makeTempDir("trellis-log-");
  const file = stderrLogPath(home, "fx");
  await platform.fs.mkdir(`${home}/logs/mcp`);
  const old = "x".repeat(MAX_STDERR_LOG_BYTES);
  await platform.fs.writeTextFile(file, old);
  const { runtime } = await startRuntime([stdio("fx", [fixture("fixture_server.mjs"), "echo"])], {
    extra: { home },
  });
  await runtime.awaitStartup({ graceMs: 30_000 });
  await runtime.shutdown();
  assert.equal((await platform.fs.stat(`${file}.1`))?.size, MAX_STDERR_LOG_BYTES);
  assert.equal(await platform.fs.readTextFile(file), "fixture echo started\n");

  const small = new RotatingLog(platform.fs, `${home}/small.log`, 10);
  for (const chunk of ["aaaa", "bbbb", "cccc", "dddd"]) small.append(chunk);
  await small.flushed();
  assert.deepStrictEqual(
    [
      await platform.fs.readTextFile(`${home}/small.log.1`),
      await platform.fs.readTextFile(`${home}/small.log`),
    ],
    ["aaaabbbb", "ccccdddd"],
  );
});

Deno.test("closing right after start-up gives no 'cannot refresh tools' warning (server-everything's tools/list_changed)", async () => {
  const { runtime, events } = await startRuntime([stdio("everything", [EVERYTHING, "stdio"])]);
  await runtime.awaitStartup({ graceMs: 30_000 });
  await runtime.shutdown();
  assert.deepStrictEqual(events.filter((e) => e.type === "warning"), []);
});
