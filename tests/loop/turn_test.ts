import assert from "node:assert/strict";
import { noTtyApprover, runTurn, TranscriptStore, type TurnOptions } from "../../lib/loop/mod.ts";
import { convertCallResult } from "../../lib/mcp/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { ConversationItem } from "../../lib/shared/mod.ts";
import {
  call,
  catalogOf,
  fakeTool,
  hooksWith,
  recorder,
  say,
  scriptedModel,
  type ScriptedStep,
} from "./_fakes.ts";

function options(steps: ScriptedStep[], extra: Partial<TurnOptions> = {}) {
  const rec = recorder();
  const model = scriptedModel(steps);
  const opts: TurnOptions = {
    turnId: "t1",
    model,
    modelName: "m",
    instructions: "be good",
    history: [],
    prompt: "do it",
    injected: [],
    captureTools: catalogOf([fakeTool("read", { parallel: true }), fakeTool("write")]),
    hooks: hooksWith({}),
    hookContext: { sessionId: "s", cwd: "/w", model: "m", permissionMode: "default", transcriptPath: null },
    approver: noTtyApprover,
    approvalPolicy: "on-request",
    events: rec.sink,
    record: rec.record,
    maxSteps: 10,
    signal: new AbortController().signal,
    cwd: "/w",
    ...extra,
  };
  return { opts, rec, model };
}

const outputsOf = (items: ConversationItem[]) =>
  items.flatMap((i) => i.type === "function_call_output" ? [[i.callId, i.status]] : []);
const callsOf = (items: ConversationItem[]) =>
  items.flatMap((i) => i.type === "function_call" ? [i.callId] : []);

Deno.test("runTurn() feeds tool outputs back until the model answers without calls", async () => {
  const { opts, rec, model } = options([[call("read", { p: 1 }, "a")], [say("done")]]);
  const result = await runTurn(opts);
  assert.deepEqual({ status: result.status, last: result.lastMessage, steps: result.steps }, {
    status: "completed",
    last: "done",
    steps: 2,
  });
  assert.deepEqual(rec.items.map((i) => i.type), [
    "message",
    "function_call",
    "function_call_output",
    "message",
  ]);
  assert.deepEqual(model.requests[1].input.at(-1), {
    type: "function_call_output",
    callId: "a",
    output: 'read ok {"p":1}',
    status: "success",
  });
});

Deno.test("runTurn() gives every call exactly one output, in call order, when parallel calls finish out of order", async () => {
  const slow = fakeTool("read", { parallel: true, delayMs: 40 });
  const fast = { ...fakeTool("grep", { parallel: true, delayMs: 1 }) };
  const { opts, rec } = options([[call("read", {}, "1"), call("grep", {}, "2"), call("nope", {}, "3")], [
    say("ok"),
  ]], {
    captureTools: catalogOf([slow, fast]),
  });
  await runTurn(opts);
  assert.deepEqual(outputsOf(rec.items), [["1", "success"], ["2", "success"], ["3", "error"]]);
});

Deno.test("runTurn() runs a run of parallel-safe calls together and any other call alone, in order", async () => {
  const log: string[] = [];
  // Each parallel "read" waits (bounded) for a second one to start: a pair overlaps or says it ran alone.
  let waiting: (() => void)[] = [];
  const paired = {
    ...fakeTool("read", { parallel: true }),
    run: async (args: unknown) => {
      const id = (args as { id: string }).id;
      log.push(`start ${id}`);
      const together = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 2_000);
        waiting.push(() => (clearTimeout(timer), resolve(true)));
        if (waiting.length === 2) (waiting.forEach((release) => release()), waiting = []);
      });
      log.push(together ? `end ${id}` : `end ${id} (ran alone)`);
      return { output: "ok", status: "success" as const };
    },
  };
  const alone = {
    ...fakeTool("write"),
    run: async (args: unknown) => {
      const id = (args as { id: string }).id;
      log.push(`start ${id}`);
      await new Promise((r) => setTimeout(r, 0));
      log.push(`end ${id}`);
      return { output: "ok", status: "success" as const };
    },
  };
  const calls = [call("read", { id: "a" }), call("read", { id: "b" }), call("write", { id: "c" })];
  const { opts } = options([[...calls, call("read", { id: "d" }), call("read", { id: "e" })], [say("ok")]], {
    captureTools: catalogOf([paired, alone]),
  });
  await runTurn(opts);
  assert.deepEqual(log, [
    "start a",
    "start b",
    "end a",
    "end b",
    "start c",
    "end c",
    "start d",
    "start e",
    "end d",
    "end e",
  ]);
});

Deno.test("runTurn() turns bad JSON arguments into an error output, not a crash", async () => {
  const { opts, rec } = options([[{ type: "function_call", callId: "x", name: "read", arguments: "{nope" }], [
    say("ok"),
  ]]);
  const result = await runTurn(opts);
  assert.equal(result.status, "completed");
  const out = rec.items.find((i) => i.type === "function_call_output");
  assert.equal(out?.type === "function_call_output" && out.status, "error");
});

Deno.test("runTurn() records nothing of a stream that breaks midway and reports failed (SPEC §8)", async () => {
  const { opts, rec } = options([{ breakAfter: [call("read", {}, "lost")] }]);
  const result = await runTurn(opts);
  assert.equal(result.status, "failed");
  assert.match(result.error!.message, /stream ended/);
  assert.deepEqual(callsOf(rec.items), []);
  assert.equal(rec.events.at(-1)?.type, "turn.failed");
});

Deno.test("runTurn() aborts running calls with an aborted output when the turn is cancelled", async () => {
  const controller = new AbortController();
  const { opts, rec } = options([[call("read", {}, "r1"), call("read", {}, "r2")], [say("never")]], {
    captureTools: catalogOf([fakeTool("read", { parallel: true, delayMs: 5_000 })]),
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(), 30);
  const result = await runTurn(opts);
  assert.equal(result.status, "aborted");
  assert.deepEqual(outputsOf(rec.items), [["r1", "aborted"], ["r2", "aborted"]]);
});

Deno.test("runTurn() denies a call needing approval without asking when approval_policy is never", async () => {
  const runs: { args: unknown; escalated: boolean }[] = [];
  const { opts, rec } = options([[call("write", {}, "w")], [say("ok")]], {
    captureTools: catalogOf([fakeTool("write", { needsApproval: true, runs })]),
    approvalPolicy: "never",
  });
  await runTurn(opts);
  assert.deepEqual(outputsOf(rec.items), [["w", "denied"]]);
  assert.deepEqual(runs, []);
});

Deno.test("runTurn() lets a PermissionRequest allow run the call escalated, and a deny stop it (HK-10)", async () => {
  for (const decision of ["allow", "deny"] as const) {
    const runs: { args: unknown; escalated: boolean }[] = [];
    const { opts, rec } = options([[call("write", {}, "w")], [say("ok")]], {
      captureTools: catalogOf([fakeTool("write", { needsApproval: true, runs })]),
      hooks: hooksWith({ permissionRequest: () => Promise.resolve({ decision }) }),
    });
    await runTurn(opts);
    assert.deepEqual(outputsOf(rec.items), [["w", decision === "allow" ? "success" : "denied"]]);
    assert.deepEqual(runs, decision === "allow" ? [{ args: {}, escalated: true }] : []);
  }
});

Deno.test("runTurn(): a PermissionRequest deny stops the call even when the user would approve it, and the user is never asked (HK-10)", async () => {
  // The neighbour of the test above, whose approver says no anyway: here only the hook's deny can
  // stop the call, and the output names the hook's message.
  for (const message of ["not on Fridays", undefined]) {
    const runs: { args: unknown; escalated: boolean }[] = [];
    const asked: string[] = [];
    const { opts, rec } = options([[call("write", {}, "w")], [say("ok")]], {
      captureTools: catalogOf([fakeTool("write", { needsApproval: true, runs })]),
      hooks: hooksWith({
        permissionRequest: () =>
          Promise.resolve({ decision: "deny" as const, ...(message ? { message } : {}) }),
      }),
      approver: {
        request: (r) => {
          asked.push(r.reason);
          return Promise.resolve({ decision: "approved" });
        },
      },
    });
    await runTurn(opts);
    assert.deepEqual(outputsOf(rec.items), [["w", "denied"]]);
    assert.deepEqual(runs, []);
    assert.deepEqual(asked, []);
    const output = rec.items.find((i) => i.type === "function_call_output");
    assert.match(
      JSON.stringify(output),
      message ? /PermissionRequest hook: not on Fridays/ : /PermissionRequest hook denied approval/,
    );
  }
});

Deno.test("runTurn() applies a PreToolUse block and rewrite, and PostToolUse feedback (HK-9, HK-11)", async () => {
  const runs: { args: unknown; escalated: boolean }[] = [];
  const { opts, rec } = options([[call("read", { v: 1 }, "a"), call("write", {}, "b")], [say("ok")]], {
    captureTools: catalogOf([fakeTool("read", { runs }), fakeTool("write", { runs })]),
    hooks: hooksWith({
      preToolUse: (_ctx, input) =>
        Promise.resolve(
          input.toolName === "Write"
            ? { block: { reason: "no writes" }, additionalContexts: [] }
            : { updatedInput: { v: 2 }, additionalContexts: ["ctx from pre"] },
        ),
      postToolUse: () => Promise.resolve({ feedback: "replaced by hook", additionalContexts: [] }),
    }),
  });
  await runTurn(opts);
  assert.deepEqual(runs, [{ args: { v: 2 }, escalated: false }]);
  const outputs = rec.items.filter((i) => i.type === "function_call_output").map((i) =>
    i.type === "function_call_output" && i.output
  );
  assert.deepEqual(outputs, [
    "replaced by hook",
    "Tool call blocked by PreToolUse hook: no writes. Tool: Write",
  ]);
  assert.ok(
    rec.items.some((i) => i.type === "message" && i.role === "developer" && i.content === "ctx from pre"),
  );
});

Deno.test("runTurn() continues after a Stop block with <hook_prompt> and passes stop_hook_active (HK-13)", async () => {
  const seen: boolean[] = [];
  const { opts, model } = options([[say("first")], [say("second")]], {
    hooks: hooksWith({
      stop: (_ctx, input) => {
        seen.push(input.stopHookActive);
        return Promise.resolve(
          input.stopHookActive
            ? { continuations: [], shouldStop: false }
            : { continuations: [{ runId: "stop:0:x", reason: "run <tests>" }], shouldStop: false },
        );
      },
    }),
  });
  const result = await runTurn(opts);
  assert.equal(result.lastMessage, "second");
  assert.deepEqual(seen, [false, true]);
  assert.deepEqual(model.requests[1].input.at(-1), {
    type: "message",
    role: "user",
    content: '<hook_prompt hook_run_id="stop:0:x">run &lt;tests&gt;</hook_prompt>',
  });
});

Deno.test("runTurn() drops a prompt blocked by UserPromptSubmit and samples nothing", async () => {
  const { opts, rec, model } = options([[say("never")]], {
    hooks: hooksWith({
      userPromptSubmit: () => Promise.resolve({ block: { reason: "secret" }, additionalContexts: [] }),
    }),
  });
  const result = await runTurn(opts);
  assert.equal(result.status, "blocked");
  assert.equal(model.requests.length, 0);
  assert.deepEqual(rec.items, []);
});

Deno.test("runTurn() stops at --max-steps with every call answered", async () => {
  const { opts, rec } = options([[call("read", {}, "1")], [call("read", {}, "2")], [call("read", {}, "3")]], {
    maxSteps: 2,
  });
  const result = await runTurn(opts);
  assert.equal(result.status, "max_steps");
  assert.deepEqual(outputsOf(rec.items), [["1", "success"], ["2", "success"]]);
});

Deno.test("runTurn() offers an unsandboxed retry of a failed sandboxed shell call under on-failure", async () => {
  const runs: { args: unknown; escalated: boolean }[] = [];
  const shell = { ...fakeTool("shell", { runs }), hookName: "Bash" };
  const failingOnce = {
    ...shell,
    run: async (args: unknown, ctx: Parameters<typeof shell.run>[1]) => {
      const result = await shell.run(args, ctx);
      return ctx.escalated ? result : { output: "Read-only file system", status: "error" as const };
    },
  };
  const asked: string[] = [];
  const { opts, rec } = options([[call("shell", { command: "touch /x" }, "s")], [say("ok")]], {
    captureTools: catalogOf([failingOnce]),
    approvalPolicy: "on-failure",
    sandboxed: true,
    approver: {
      request: (r) => {
        asked.push(r.reason);
        return Promise.resolve({ decision: "approved" });
      },
    },
  });
  await runTurn(opts);
  assert.deepEqual(runs.map((r) => r.escalated), [false, true]);
  assert.equal(asked.length, 1);
  assert.deepEqual(outputsOf(rec.items), [["s", "success"]]);
});

Deno.test("runTurn() waits for asyncRewake hooks before it ends and samples again with their wake (HK-5)", async () => {
  let settles = 0;
  const { opts, rec, model } = options([[say("done")], [say("fixed it")]], {
    hooks: hooksWith({
      takeBackgroundResults: () => ({ contexts: [], wakes: [] }),
      settleBackground: () =>
        Promise.resolve(
          settles++ === 0
            ? { contexts: ["lint passed"], wakes: [{ runId: "post_tool_use:0:x", reason: "review: <leak>" }] }
            : { contexts: [], wakes: [] },
        ),
    }),
  });
  const result = await runTurn(opts);
  assert.deepStrictEqual([result.status, result.lastMessage, model.requests.length, settles], [
    "completed",
    "fixed it",
    2,
    2,
  ]);
  assert.deepStrictEqual(rec.items.slice(-3, -1), [
    { type: "message", role: "developer", content: "lint passed" },
    {
      type: "message",
      role: "user",
      content: '<hook_prompt hook_run_id="post_tool_use:0:x">review: &lt;leak&gt;</hook_prompt>',
    },
  ]);
});

Deno.test("runTurn() samples again when an asyncRewake wake arrived while the model gave its last answer (HK-5)", async () => {
  let takes = 0;
  const { opts, rec, model } = options([[say("committed")], [say("acknowledged")]], {
    hooks: hooksWith({
      // The review finished during the answer: the step's own take gets the wake, the settle nothing.
      takeBackgroundResults: () =>
        takes++ === 0
          ? { contexts: [], wakes: [{ runId: "post_tool_use:0:r", reason: "secret in config.py" }] }
          : { contexts: [], wakes: [] },
      settleBackground: () => Promise.resolve({ contexts: [], wakes: [] }),
    }),
  });
  const result = await runTurn(opts);
  assert.deepStrictEqual([result.status, result.lastMessage, model.requests.length], [
    "completed",
    "acknowledged",
    2,
  ]);
  assert.match(JSON.stringify(model.requests[1].input), /secret in config\.py/);
  assert.ok(
    rec.items.some((i) => i.type === "message" && i.role === "user" && /hook_prompt/.test(String(i.content))),
  );
});

Deno.test("runTurn() records background hook context that finished during a step before the next sampling (HK-5)", async () => {
  const { opts, rec } = options([[call("c1", "read")], [say("ok")]], {
    hooks: hooksWith({ takeBackgroundResults: () => ({ contexts: ["async lint: 2 warnings"], wakes: [] }) }),
  });
  await runTurn(opts);
  const afterOutput = rec.items.findIndex((i) => i.type === "function_call_output") + 1;
  assert.deepStrictEqual(rec.items[afterOutput], {
    type: "message",
    role: "developer",
    content: "async lint: 2 warnings",
  });
});

Deno.test("runTurn() aborts a call cancelled while its PreToolUse guard ran, even if the guard did not block (#13)", async () => {
  const controller = new AbortController();
  const runs: { args: unknown; escalated: boolean }[] = [];
  const { opts, rec } = options([[call("write", {}, "c1")], [say("never")]], {
    captureTools: catalogOf([fakeTool("write", { runs })]),
    signal: controller.signal,
    hooks: hooksWith({
      preToolUse: () => {
        controller.abort(); // Ctrl-C arrives while the guard runs; the guard then answers nothing
        return Promise.resolve({ additionalContexts: [] });
      },
    }),
  });
  const result = await runTurn(opts);
  assert.deepStrictEqual([result.status, runs, outputsOf(rec.items)], ["aborted", [], [["c1", "aborted"]]]);
});

Deno.test("resume gives each call left without an output an aborted one, written to the transcript once (SPEC §8)", async () => {
  const dir = await platform.fs.makeTempDir("trellis-resume-");
  try {
    const store = new TranscriptStore(platform.fs, dir);
    const killed = await store.create({}, {
      id: "s1",
      created: "2026-01-01T00:00:00Z",
      cwd: "/w",
      model: "m",
    });
    await killed.recordItem({ type: "message", role: "user", content: "go" });
    await killed.recordItem(call("read", {}, "done"));
    await killed.recordItem({
      type: "function_call_output",
      callId: "done",
      output: "ok",
      status: "success",
    });
    await killed.recordItem(call("shell", {}, "cut"));
    await killed.close(); // as a SIGKILL mid-call leaves it: a call without an output
    const aborted = {
      type: "function_call_output",
      callId: "cut",
      output: "aborted: the session ended before this call finished",
      status: "aborted",
    };
    const resumed = await store.open("s1");
    await resumed.close();
    assert.deepEqual(outputsOf(resumed.items), [["done", "success"], ["cut", "aborted"]]);
    assert.deepEqual(resumed.items.at(-1), aborted);
    const again = await store.open("s1");
    await again.close();
    assert.deepEqual(outputsOf(again.items), [["done", "success"], ["cut", "aborted"]]);
  } finally {
    await platform.fs.remove(dir, { recursive: true });
  }
});

Deno.test("runTurn() records the model's output of an MCP result and puts its display text on the event only (#21 item 6)", async () => {
  const weather = {
    ...fakeTool("weather"),
    run: () =>
      Promise.resolve(convertCallResult({
        content: [{ type: "text", text: "Sunny in Lyon" }],
        structuredContent: { sky: "sunny" },
      })),
  };
  const { opts, rec } = options([[call("weather", {}, "w1")], [say("done")]], {
    captureTools: catalogOf([weather]),
  });
  assert.equal((await runTurn(opts)).status, "completed");
  const recorded = rec.items.find((i) => i.type === "function_call_output");
  assert.deepEqual(recorded, {
    type: "function_call_output",
    callId: "w1",
    output: '{"sky":"sunny"}',
    status: "success",
  });
  const completed = rec.events.flatMap((e) =>
    e.type === "item.completed" && "call_id" in e.item ? [[e.item.output, e.item.display_text]] : []
  );
  assert.deepEqual(completed, [['{"sky":"sunny"}', "Sunny in Lyon"]]);
});

/** A model that streams `text` in pieces, then waits until the turn is interrupted. */
function interruptedModel(text: string, onStreamed: () => void): TurnOptions["model"] {
  return {
    stream(_request, signal) {
      return (async function* () {
        for (const piece of text.match(/.{1,4}/gs) ?? []) yield { type: "text_delta" as const, delta: piece };
        onStreamed();
        if (!signal.aborted) {
          await new Promise<void>((resolve) =>
            signal.addEventListener("abort", () => resolve(), { once: true })
          );
        }
        throw new Error("the request was aborted");
      })();
    },
  };
}

Deno.test("runTurn() records the answer interrupted mid-stream as far as it went (#21 item 3)", async () => {
  const controller = new AbortController();
  const { opts, rec } = options([], {
    model: interruptedModel("Here is the first half of", () => controller.abort()),
    signal: controller.signal,
  });
  const result = await runTurn(opts);
  assert.equal(result.status, "aborted");
  assert.deepStrictEqual(rec.items.at(-1), {
    type: "message",
    role: "assistant",
    content: "Here is the first half of",
  });
});

Deno.test("runTurn() records no answer when a stream breaks without an interruption, or is interrupted before any text (#21 item 3)", async () => {
  // A broken stream (not an interruption) still records nothing of what it streamed (SPEC §8).
  const broken: TurnOptions["model"] = {
    stream() {
      return (async function* () {
        yield { type: "text_delta" as const, delta: "half an answer" };
        throw new Error("connection reset");
      })();
    },
  };
  const first = options([], { model: broken });
  assert.equal((await runTurn(first.opts)).status, "failed");
  assert.ok(!first.rec.items.some((i) => i.type === "message" && i.role === "assistant"));
  const controller = new AbortController();
  const second = options([], {
    model: interruptedModel("", () => controller.abort()),
    signal: controller.signal,
  });
  assert.equal((await runTurn(second.opts)).status, "aborted");
  assert.ok(!second.rec.items.some((i) => i.type === "message" && i.role === "assistant"));
});
