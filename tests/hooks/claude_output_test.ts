import assert from "node:assert/strict";
import { createHookEngine, type HookHandlerInfo, type HookRunRecord } from "../../lib/hooks/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { eventLog, handler, tempDir, testEnv, turnContext } from "./_helpers.ts";

// Hook output and handler fields as Claude Code reads them (#14 items 2–3, HK-5, HK-8).

const bashCall = (command: string) => ({
  toolName: "Bash",
  aliases: ["shell"],
  toolInput: { command },
  toolUseId: "call-1",
});
const writeCall = {
  toolName: "Write",
  aliases: [],
  toolInput: { file_path: "/w/app.js", content: "eval(input)" },
  toolUseId: "call-2",
};
const WARNING = "⚠️ Security Warning: eval() executes arbitrary code and is a major security risk.";
const post = (command: string, order: number, extra: Partial<HookHandlerInfo> = {}) =>
  handler({ command, displayOrder: order, event: "PostToolUse", key: `k${order}`, ...extra });

async function engineWith(handlers: HookHandlerInfo[], baseEnv = testEnv()) {
  const home = await tempDir();
  const log = eventLog();
  const engine = createHookEngine({ handlers, platform, events: log.sink, home, threadId: "t", baseEnv });
  const runs: HookRunRecord[] = [];
  engine.observe((r) => runs.push(...r));
  return { engine, home, log, runs, ctx: turnContext(home) };
}

/** A script file in `dir` printing `lines` (JSON-encoded objects, or raw text) on stdout. */
async function printer(dir: string, name: string, lines: unknown[], tail = "exit 0"): Promise<string> {
  const body = lines.map((l) => `printf '%s\\n' '${typeof l === "string" ? l : JSON.stringify(l)}'`).join(
    "\n",
  );
  await platform.fs.writeTextFile(`${dir}/${name}`, `cat >/dev/null\n${body}\n${tail}\n`);
  return `sh ${dir}/${name}`;
}

Deno.test("postToolUse() passes security-guidance's warning to the model although the output carries metrics (#14)", async () => {
  const dir = await tempDir();
  const command = await printer(dir, "guard.sh", [{
    metrics: { pattern_hits: 1, rule_id: 4, rule_mask: 16 },
    hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: WARNING },
  }]);
  const { engine, ctx, runs } = await engineWith([post(command, 0, { matcher: "Edit|Write" })]);
  assert.deepStrictEqual(await engine.postToolUse(ctx, { ...writeCall, toolResponse: "ok" }), {
    additionalContexts: [WARNING],
  });
  assert.deepStrictEqual([runs[0].status, runs[0].effect.ignored], ["completed", ["metrics"]]);
});

Deno.test("postToolUse() reads the first JSON line and sets a trailing metrics line aside (#14)", async () => {
  const dir = await tempDir();
  const command = await printer(dir, "guard.sh", [
    { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: WARNING } },
    { metrics: { tok_in: 10 } },
  ]);
  const { engine, ctx, runs } = await engineWith([post(command, 0)]);
  assert.deepStrictEqual(await engine.postToolUse(ctx, { ...writeCall, toolResponse: "ok" }), {
    additionalContexts: [WARNING],
  });
  assert.deepStrictEqual(runs[0].effect.ignored, ["line 2"]);
});

Deno.test("postToolUse() names a documented field Trellis cannot apply and still applies the rest (HK-8)", async () => {
  const dir = await tempDir();
  const command = await printer(dir, "guard.sh", [{
    terminalSequence: "\u0007",
    hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "ctx", updatedToolOutput: "x" },
  }]);
  const { engine, ctx, log } = await engineWith([post(command, 0)]);
  assert.deepStrictEqual(await engine.postToolUse(ctx, { ...writeCall, toolResponse: "ok" }), {
    additionalContexts: ["ctx"],
  });
  assert.deepStrictEqual(log.events.filter((e) => e.type === "warning").map((e) => e.message), [
    "PostToolUse hook returned hookSpecificOutput.updatedToolOutput, which Trellis does not apply (ignored)",
    "PostToolUse hook returned terminalSequence, which Trellis does not apply (ignored)",
  ]);
});

Deno.test("postToolUse() runs only the handler whose `if` matches the call (#14, HK-5)", async () => {
  const dir = await tempDir();
  const { engine, ctx } = await engineWith([
    post(`touch ${dir}/commit-review`, 0, { matcher: "Bash", ifRule: "Bash(git commit:*)" }),
    post(`touch ${dir}/push-review`, 1, { matcher: "Bash", ifRule: "Bash(git push:*)" }),
    post(`touch ${dir}/every-bash`, 2, { matcher: "Bash" }),
  ]);
  await engine.postToolUse(ctx, { ...bashCall("git commit -m 'fix'"), toolResponse: "ok" });
  const ran = [];
  for (const name of ["commit-review", "push-review", "every-bash"]) {
    if (await platform.fs.stat(`${dir}/${name}`)) ran.push(name);
  }
  assert.deepStrictEqual(ran, ["commit-review", "every-bash"]);
});

Deno.test("preToolUse() runs an `if: Bash(rm:*)` guard for rm behind wrappers and -c strings, and warns when it cannot read the line (#20 item 8)", async () => {
  const dir = await tempDir();
  const guard = handler({
    command: `cat >/dev/null; echo >> ${dir}/fired`,
    matcher: "Bash",
    ifRule: "Bash(rm:*)",
    key: "guard",
  });
  const { engine, ctx, log } = await engineWith([guard]);
  const fired: [string, number][] = [];
  for (
    const command of ["sudo rm -rf build", "bash -c 'cd x && rm y'", "echo rm", "rmdir x", "if true; then ls"]
  ) {
    await engine.preToolUse(ctx, bashCall(command));
    const text = await platform.fs.readTextFile(`${dir}/fired`).catch(() => "");
    fired.push([command, text.length]);
  }
  assert.deepStrictEqual(fired, [
    ["sudo rm -rf build", 1],
    ["bash -c 'cd x && rm y'", 2],
    ["echo rm", 2],
    ["rmdir x", 2],
    ["if true; then ls", 3],
  ]);
  assert.deepStrictEqual(log.events.filter((e) => e.type === "warning"), [{
    type: "warning",
    message: 'hook guard runs: its "if" "Bash(rm:*)" cannot judge this command (syntax error at column 17: ' +
      "expected 'fi' to close 'if'), and a command it cannot read counts as matching",
    subject: "guard",
  }]);
});

Deno.test("preToolUse() does not wait for an async hook; its context arrives once it finished (HK-5)", async () => {
  const dir = await tempDir();
  // Finishes only after the test, not the engine, releases it: waiting for it would never return.
  const command = await printer(dir, "slow.sh", [{
    hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "lint done" },
    decision: "block",
    reason: "ignored: a background hook cannot block",
  }]);
  const { engine, ctx, runs } = await engineWith([
    handler({ command: `while [ ! -f ${dir}/go ]; do sleep 0.01; done; ${command}`, async: true }),
  ]);
  assert.deepStrictEqual(await engine.preToolUse(ctx, bashCall("ls")), { additionalContexts: [] });
  assert.deepStrictEqual(runs.map((r) => r.status), ["background"]);
  assert.deepStrictEqual(engine.takeBackgroundResults(), { contexts: [], wakes: [] });
  await platform.fs.writeTextFile(`${dir}/go`, "");
  await engine.close();
  assert.deepStrictEqual(engine.takeBackgroundResults(), { contexts: ["lint done"], wakes: [] });
  assert.deepStrictEqual(runs.map((r) => r.status), ["background", "completed"]);
});

Deno.test('a hook whose first stdout line is {"async": true} goes on in the background (#14)', async () => {
  const dir = await tempDir();
  const rest = { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "late context" } };
  const command = `cat >/dev/null; echo '{"async": true, "asyncTimeout": 30000}'; ` +
    `while [ ! -f ${dir}/go ]; do sleep 0.01; done; echo '${JSON.stringify(rest)}'`;
  const { engine, ctx, runs } = await engineWith([post(command, 0)]);
  assert.deepStrictEqual(await engine.postToolUse(ctx, { ...writeCall, toolResponse: "ok" }), {
    additionalContexts: [],
  });
  await platform.fs.writeTextFile(`${dir}/go`, "");
  await engine.close();
  assert.deepStrictEqual(engine.takeBackgroundResults(), { contexts: ["late context"], wakes: [] });
  assert.deepStrictEqual(runs.map((r) => [r.status, r.effect.ignored]), [["background", undefined], [
    "completed",
    undefined,
  ]]);
});

Deno.test("settleBackground() waits for an asyncRewake hook and wakes the model with its message and stderr (HK-5)", async () => {
  const dir = await tempDir();
  const summary = { metrics: { findings: 1 }, rewakeSummary: "1 finding in the commit" };
  const command = await printer(dir, "review.sh", [summary], "echo 'SQL injection in db.py:12' >&2; exit 2");
  const quiet = await printer(dir, "quiet.sh", [], "exit 0");
  const { engine, ctx, log } = await engineWith([
    post(command, 0, { rewake: { message: "Background security review:", summary: "Review found issues" } }),
    post(quiet, 1, { rewake: {} }),
  ]);
  assert.deepStrictEqual(await engine.postToolUse(ctx, { ...bashCall("git commit"), toolResponse: "ok" }), {
    additionalContexts: [],
  });
  assert.deepStrictEqual(await engine.settleBackground(), {
    contexts: [],
    wakes: [{
      runId: "post_tool_use:0:/tmp/hooks.json:call-1",
      reason: "Background security review:\n\nSQL injection in db.py:12",
    }],
  });
  assert.deepStrictEqual(
    log.events.filter((e) => e.type === "notice").map((e) => e.message),
    ["1 finding in the commit (k0)"],
  );
});

Deno.test("hooks get the user's whole environment, not an allow-list (#14, HK-6)", async () => {
  const { engine, ctx } = await engineWith(
    [handler({ command: 'echo "$NOTIFY_TOKEN|$CLAUDE_PROJECT_DIR" >&2; exit 2' })],
    { ...testEnv(), NOTIFY_TOKEN: "xoxb-123" },
  );
  assert.deepStrictEqual(await engine.preToolUse(ctx, bashCall("ls")), {
    block: { reason: `xoxb-123|${ctx.cwd}` },
    additionalContexts: [],
  });
});
