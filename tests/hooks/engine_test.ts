import assert from "node:assert/strict";
import { createHookEngine, type HookHandlerInfo, type HookRunRecord } from "../../lib/hooks/mod.ts";
// The loop writes these very texts (it imports them from lib/shared): what is tested is what runs.
import { blockedToolMessage, hookPromptMessage } from "../../lib/shared/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { eventLog, handler, tempDir, testEnv, turnContext } from "./_helpers.ts";

const print = (value: unknown) => `printf '%s' '${JSON.stringify(value)}'`;
/**
 * Waits (in the hook's cwd) until the engine reported the run of the handler at `displayOrder` as
 * completed: `engineWith`'s event sink leaves `completed-<order>` when it sees that hook.completed.
 */
const after = (displayOrder: number) => `while [ ! -f completed-${displayOrder} ]; do sleep 0.01; done;`;
const bashCall = { toolName: "Bash", aliases: ["shell"], toolInput: { command: "ls" }, toolUseId: "call-1" };

async function engineWith(handlers: HookHandlerInfo[]) {
  const home = await tempDir();
  const log = eventLog();
  const engine = createHookEngine({
    handlers,
    platform,
    events: (event) => {
      log.sink(event);
      if (event.type === "hook.completed") {
        platform.fs.sync.writeFile(`${home}/completed-${event.display_order}`, new Uint8Array());
      }
    },
    home,
    threadId: "thread-1",
    baseEnv: testEnv(),
  });
  const runs: HookRunRecord[][] = [];
  engine.observe((r) => runs.push(r));
  return { engine, home, log, runs, ctx: turnContext(home) };
}

const pre = (command: string, displayOrder = 0, extra: Partial<HookHandlerInfo> = {}) =>
  handler({ command, displayOrder, ...extra });

Deno.test("preToolUse() does not block when a hook exits 2 with empty stderr, and blocks with its stderr (candidate 12)", async () => {
  const empty = await engineWith([pre("exit 2")]);
  assert.deepStrictEqual(await empty.engine.preToolUse(empty.ctx, bashCall), { additionalContexts: [] });
  assert.deepStrictEqual(empty.runs[0].map((r) => [r.status, r.entries]), [[
    "failed",
    [{
      kind: "error",
      text: "PreToolUse hook exited with code 2 but did not write a blocking reason to stderr",
    }],
  ]]);
  const blocking = await engineWith([pre("cat >/dev/null; echo no >&2; exit 2")]);
  const outcome = await blocking.engine.preToolUse(blocking.ctx, bashCall);
  assert.deepStrictEqual(outcome, { block: { reason: "no" }, additionalContexts: [] });
  assert.deepStrictEqual(
    blockedToolMessage(outcome.block!.reason, bashCall),
    "Command blocked by PreToolUse hook: no. Command: ls",
  );
});

Deno.test("preToolUse() fails the run and keeps the input when the output is invalid (candidate 13, HK-8)", async () => {
  const { engine, ctx, runs } = await engineWith([
    pre(print({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "rm" } } }), 0),
    pre(print({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "maybe" } }), 1),
    pre("echo '{oops'", 2),
    pre("head -c 10000000 /dev/zero | tr '\\0' a", 3),
    pre(print({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }), 4),
  ]);
  assert.deepStrictEqual(await engine.preToolUse(ctx, bashCall), { additionalContexts: [] });
  assert.deepStrictEqual(runs[0].map((r) => [r.status, r.effect.error]), [
    ["failed", "PreToolUse hook returned updatedInput without permissionDecision:allow or ask"],
    [
      "failed",
      'PreToolUse hook returned invalid JSON output: hookSpecificOutput.permissionDecision: Invalid option: expected one of "allow"|"deny"|"ask"|"defer"',
    ],
    ["failed", "hook returned invalid PreToolUse JSON output"],
    ["failed", "hook output exceeded the output size cap and was cut"],
    // As in Codex: an allow must say what to run.
    ["failed", "PreToolUse hook returned unsupported permissionDecision:allow without updatedInput"],
  ]);
});

Deno.test("preToolUse() applies the rewrite of the handler that finished last, not the last configured (candidate 14)", async () => {
  const allow = (v: string) =>
    print({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        updatedInput: { command: v },
      },
    });
  const { engine, ctx, runs } = await engineWith([
    pre(`${after(1)} ${allow("slow")}`, 0, { timeoutSec: 10 }),
    pre(allow("fast"), 1),
  ]);
  const outcome = await engine.preToolUse(ctx, bashCall);
  assert.deepStrictEqual(outcome, { updatedInput: { command: "slow" }, additionalContexts: [] });
  assert.deepStrictEqual(runs[0].map((r) => [r.handler.displayOrder, r.completionIndex]), [[0, 1], [1, 0]]);
});

Deno.test("preToolUse() runs handlers concurrently, records completion order and reports configured order (HK-7)", async () => {
  const { engine, ctx, runs, log } = await engineWith([
    // A waits for C, C waits for B: run serially in configured order this would time out.
    pre(`${after(2)} true`, 0, { sourcePath: "/a", timeoutSec: 10 }),
    pre("true", 1, { sourcePath: "/b" }),
    pre(`${after(1)} true`, 2, { sourcePath: "/c", timeoutSec: 10 }),
  ]);
  await engine.preToolUse(ctx, bashCall);
  assert.deepStrictEqual(runs[0].map((r) => [r.runId, r.completionIndex]), [
    ["pre_tool_use:0:/a:call-1", 2],
    ["pre_tool_use:1:/b:call-1", 0],
    ["pre_tool_use:2:/c:call-1", 1],
  ]);
  const kinds = log.events.map((e) =>
    e.type === "hook.completed" ? `done ${e.source}` : `${e.type} ${"source" in e ? e.source : ""}`
  );
  assert.deepStrictEqual(kinds, [
    "hook.started /a",
    "hook.started /b",
    "hook.started /c",
    "done /b",
    "done /c",
    "done /a",
  ]);
});

Deno.test("preToolUse() writes the HK-6 stdin payload and matches aliases while sending the canonical name", async () => {
  const home = await tempDir();
  const out = `${home}/stdin.json`;
  const { engine, ctx } = await engineWith([pre(`cat > ${out}`, 0, { matcher: "shell" })]);
  await engine.preToolUse({ ...ctx, cwd: home }, bashCall);
  assert.deepStrictEqual(JSON.parse(await platform.fs.readTextFile(out)), {
    session_id: "session-1",
    transcript_path: null,
    cwd: home,
    hook_event_name: "PreToolUse",
    model: "gpt-test",
    permission_mode: "default",
    turn_id: "turn-1",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_use_id: "call-1",
  });
});

Deno.test("preToolUse() blocks when an on_failure=block guard cannot run, and fails open otherwise", async () => {
  const key = "/tmp/hooks.json:pre_tool_use:0:0";
  const guarded = await engineWith([pre("exit 7", 0, { onFailure: "block", key })]);
  assert.deepStrictEqual(await guarded.engine.preToolUse(guarded.ctx, bashCall), {
    block: { reason: `hook ${key} failed and is configured to block: hook exited with code 7` },
    additionalContexts: [],
  });
  const open = await engineWith([pre("exit 7")]);
  assert.deepStrictEqual(await open.engine.preToolUse(open.ctx, bashCall), { additionalContexts: [] });
});

Deno.test("preToolUse() fails a hook that times out, and returns promptly when a hook forks a child and exits", async () => {
  const { engine, ctx, runs } = await engineWith([
    pre("sleep 30", 0, { timeoutSec: 1 }),
    pre("(sleep 30 &); echo forked", 1),
  ]);
  assert.deepStrictEqual(await engine.preToolUse(ctx, bashCall), { additionalContexts: [] });
  assert.deepStrictEqual(runs[0].map((r) => [r.status, r.effect.error]), [
    ["failed", "hook timed out after 1s"],
    ["completed", undefined],
  ]);
});

/** Resolves once `file` exists: the hook under test has started (no timing assumption). */
async function waitForFile(file: string): Promise<void> {
  while (!(await platform.fs.stat(file))) await new Promise((r) => setTimeout(r, 10));
}

Deno.test("preToolUse() blocks when the turn is cancelled while a guard runs: no answer never allows (#13)", async () => {
  // The guard would allow (exit 0) if it ever answered.
  const { engine, ctx, runs, home } = await engineWith([pre("touch started; sleep 30; exit 0")]);
  const key = "/tmp/hooks.json:pre_tool_use:0:0";
  const controller = new AbortController();
  const pending = engine.preToolUse({ ...ctx, signal: controller.signal }, bashCall);
  await waitForFile(`${home}/started`);
  controller.abort();
  assert.deepStrictEqual(await pending, {
    block: { reason: `PreToolUse hook ${key} did not answer (hook was cancelled)` },
    additionalContexts: [],
  });
  assert.deepStrictEqual([runs[0][0].status, runs[0][0].effect.error], ["failed", "hook was cancelled"]);
});

Deno.test("permissionRequest() denies when a guard is killed by a signal before answering (#13)", async () => {
  const { engine, ctx } = await engineWith([pre("kill -INT $$", 0, { event: "PermissionRequest" })]);
  const key = "/tmp/hooks.json:pre_tool_use:0:0";
  assert.deepStrictEqual(await engine.permissionRequest(ctx, { ...bashCall, reason: "r" }), {
    decision: "deny",
    message:
      `PermissionRequest hook ${key} did not answer (hook exited without a status code (killed by SIGINT))`,
  });
});

Deno.test("preToolUse() gives plugin hooks PLUGIN_ROOT/CLAUDE_ env vars and substitutes ${VAR} in the command itself", async () => {
  const dataDir = `${await tempDir()}/data/demo`;
  const plugin = { pluginId: "demo@test", pluginRoot: "/plugins/demo", dataDir };
  const { engine, ctx } = await engineWith([
    // Single quotes: the shell never expands these, so only Trellis's substitution can fill them in.
    pre(
      `echo '\${CLAUDE_PLUGIN_ROOT}|\${PLUGIN_DATA}|\${OTHER}' "|$PLUGIN_ROOT|$CLAUDE_PLUGIN_DATA" >&2; exit 2`,
      0,
      {
        plugin,
      },
    ),
  ]);
  assert.deepStrictEqual(await engine.preToolUse(ctx, bashCall), {
    block: { reason: `/plugins/demo|${dataDir}|\${OTHER} |/plugins/demo|${dataDir}` },
    additionalContexts: [],
  });
});

Deno.test("preToolUse() creates PLUGIN_DATA before a plugin hook runs, so the hook can write there (#13)", async () => {
  const dataDir = `${await tempDir()}/plugins/data/demo`;
  const plugin = { pluginId: "demo@test", pluginRoot: "/plugins/demo", dataDir };
  const { engine, ctx } = await engineWith([pre('echo state > "$PLUGIN_DATA/state.txt"', 0, { plugin })]);
  await engine.preToolUse(ctx, bashCall);
  assert.deepStrictEqual(await platform.fs.readTextFile(`${dataDir}/state.txt`), "state\n");
});

Deno.test("permissionRequest() lets any deny win over allow and defaults the deny message (HK-10)", async () => {
  const decide = (behavior: string) =>
    print({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior } } });
  const perm = (command: string, displayOrder: number) =>
    pre(command, displayOrder, { event: "PermissionRequest" });
  const both = await engineWith([perm(decide("allow"), 0), perm(decide("deny"), 1)]);
  assert.deepStrictEqual(await both.engine.permissionRequest(both.ctx, { ...bashCall, reason: "r" }), {
    decision: "deny",
    message: "PermissionRequest hook denied approval",
  });
  const allow = await engineWith([perm(decide("allow"), 0)]);
  assert.deepStrictEqual(await allow.engine.permissionRequest(allow.ctx, { ...bashCall, reason: "r" }), {
    decision: "allow",
  });
});

Deno.test("postToolUse() replaces the output with block feedback and records context (HK-11)", async () => {
  const { engine, ctx } = await engineWith([
    pre(
      print({
        decision: "block",
        reason: "tests failed",
        hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "ran tests" },
      }),
      0,
      { event: "PostToolUse" },
    ),
  ]);
  assert.deepStrictEqual(await engine.postToolUse(ctx, { ...bashCall, toolResponse: { ok: true } }), {
    feedback: "tests failed",
    additionalContexts: ["ran tests"],
  });
});

Deno.test("userPromptSubmit() and sessionStart() add plain-text and JSON context, and block or stop (HK-12)", async () => {
  const prompt = await engineWith([
    pre("echo remember the style guide", 0, { event: "UserPromptSubmit" }),
    pre(print({ decision: "block", reason: "secret in prompt" }), 1, { event: "UserPromptSubmit" }),
  ]);
  assert.deepStrictEqual(await prompt.engine.userPromptSubmit(prompt.ctx, { prompt: "hi" }), {
    additionalContexts: ["remember the style guide"],
    block: { reason: "secret in prompt" },
  });
  const session = await engineWith([
    pre(print({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" } }), 0, {
      event: "SessionStart",
      matcher: "startup",
    }),
    pre(print({ continue: false, stopReason: "maintenance" }), 1, {
      event: "SessionStart",
      matcher: "resume",
    }),
  ]);
  assert.deepStrictEqual(await session.engine.sessionStart(session.ctx, { source: "startup" }), {
    additionalContexts: ["ctx"],
  });
  assert.deepStrictEqual(await session.engine.sessionStart(session.ctx, { source: "resume" }), {
    additionalContexts: [],
    stop: { reason: "maintenance" },
  });
});

Deno.test("stop() ignores a block without reason and continues with a reason and stop_hook_active (candidate 15)", async () => {
  const stopHook = (command: string) => pre(command, 0, { event: "Stop" });
  const noReason = await engineWith([stopHook(print({ decision: "block" }))]);
  assert.deepStrictEqual(
    await noReason.engine.stop(noReason.ctx, { stopHookActive: false, lastAssistantMessage: "done" }),
    { continuations: [], shouldStop: false },
  );
  assert.deepStrictEqual(
    noReason.runs[0][0].effect.error,
    "Stop hook requested continuation without a prompt; ignoring the block.",
  );

  const home = await tempDir();
  const { engine, ctx } = await engineWith([
    stopHook(
      `cat >> ${home}/stdin.jsonl; echo >> ${home}/stdin.jsonl; ${
        print({ decision: "block", reason: "go on" })
      }`,
    ),
  ]);
  const first = await engine.stop(ctx, { stopHookActive: false, lastAssistantMessage: "done" });
  assert.deepStrictEqual(first, {
    continuations: [{ runId: "stop:0:/tmp/hooks.json", reason: "go on" }],
    shouldStop: false,
  });
  assert.deepStrictEqual(
    hookPromptMessage(first.continuations),
    '<hook_prompt hook_run_id="stop:0:/tmp/hooks.json">go on</hook_prompt>',
  );
  await engine.stop(ctx, { stopHookActive: true, lastAssistantMessage: "done" });
  const lines = (await platform.fs.readTextFile(`${home}/stdin.jsonl`)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepStrictEqual(lines.map((l) => l.stop_hook_active), [false, true]);
});

Deno.test("stop() lets continue:false win over a block (HK-13)", async () => {
  const { engine, ctx } = await engineWith([
    pre(print({ decision: "block", reason: "more" }), 0, { event: "Stop" }),
    pre(print({ continue: false }), 1, { event: "Stop" }),
  ]);
  assert.deepStrictEqual(await engine.stop(ctx, { stopHookActive: false, lastAssistantMessage: null }), {
    continuations: [],
    shouldStop: true,
  });
});

Deno.test("sessionStart() spills a 20,000-char context to hook_outputs and keeps a preview (candidate 17, HK-15)", async () => {
  const big = "x".repeat(20_000);
  const { engine, ctx, home } = await engineWith([
    pre(`head -c 20000 /dev/zero | tr '\\0' x`, 0, { event: "SessionStart" }),
  ]);
  const outcome = await engine.sessionStart(ctx, { source: "startup" });
  const [text] = outcome.additionalContexts;
  const saved = /Full hook output saved to: (.+)$/.exec(text)?.[1];
  assert.ok(saved?.startsWith(`${home}/hook_outputs/thread-1/`) && saved.endsWith(".txt"), text.slice(-200));
  assert.deepStrictEqual(await platform.fs.readTextFile(saved!), big);
  assert.ok(
    text.startsWith("Warning: truncated output (original token count: 5000)\nTotal output lines: 1\n\n"),
  );
  assert.ok(text.length <= 10_000);
});

Deno.test("preToolUse() never runs a handler that is not runnable (HK-3)", async () => {
  const home = await tempDir();
  const { engine, ctx, runs } = await engineWith([
    pre(`touch ${home}/ran`, 0, { runnable: false, trust: "untrusted" }),
  ]);
  await engine.preToolUse(ctx, bashCall);
  assert.deepStrictEqual([runs[0], await platform.fs.stat(`${home}/ran`)], [[], null]);
});
