import assert from "node:assert/strict";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  createHookEngine,
  HOOK_EVENTS,
  type HookEventName,
  interpretRun,
  testHookEvent,
} from "../../lib/hooks/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { discardEvents } from "../../lib/shared/mod.ts";
import { handler, tempDir, testEnv, turnContext } from "./_helpers.ts";

// The stdin/stdout contract of every event, pinned by JSON-Schema fixtures written from the shapes
// Claude Code and Codex document (fixtures/hooks/schema/<event>.{input,output}.schema.json).
const validator = new AjvJsonSchemaValidator();
const snake = (event: string) => event.replace(/(?<!^)(?=[A-Z])/g, "_").toLowerCase();

async function schema(event: HookEventName, side: "input" | "output") {
  const url = new URL(`../../fixtures/hooks/schema/${snake(event)}.${side}.schema.json`, import.meta.url);
  return validator.getValidator(JSON.parse(await platform.fs.readTextFile(url.pathname)));
}

Deno.test("every event's stdin, as Trellis really sends it, matches its input schema fixture (HK-6)", async () => {
  const home = await tempDir();
  const handlers = HOOK_EVENTS.map((event, i) =>
    handler({ event, command: `cat > stdin-${event}.json`, displayOrder: i, key: `k:${event}` })
  );
  const engine = createHookEngine({
    handlers,
    platform,
    events: discardEvents,
    home,
    threadId: "t",
    baseEnv: testEnv(),
  });
  for (const event of HOOK_EVENTS) {
    await testHookEvent(engine, event, turnContext(home), { input: { command: "ls" } });
  }
  const results: Record<string, string | undefined> = {};
  for (const event of HOOK_EVENTS) {
    const sent = JSON.parse(await platform.fs.readTextFile(`${home}/stdin-${event}.json`));
    const check = (await schema(event, "input"))(sent);
    results[event] = check.valid ? undefined : check.errorMessage;
  }
  assert.deepStrictEqual(results, Object.fromEntries(HOOK_EVENTS.map((e) => [e, undefined])));
});

Deno.test("#22 item 4: the events a subagent fires carry agent_id and agent_type, and still match their schema fixtures", async () => {
  const home = await tempDir();
  // What fires inside a child: its tool events, its compactions, SubagentStart/Stop, the observed ones.
  const inChild = HOOK_EVENTS.filter((e) =>
    !["SessionStart", "SessionEnd", "UserPromptSubmit", "Stop", "StopFailure", "ConfigChange"].includes(e)
  );
  const handlers = inChild.map((event, i) =>
    handler({ event, command: `cat > stdin-${event}.json`, displayOrder: i, key: `k:${event}` })
  );
  const engine = createHookEngine({
    handlers,
    platform,
    events: discardEvents,
    home,
    threadId: "t",
    baseEnv: testEnv(),
  });
  const ctx = turnContext(home, { agent: { id: "t-agent1", type: "code-explorer" } });
  for (const event of inChild) await testHookEvent(engine, event, ctx, { input: { command: "ls" } });
  const results: Record<string, string | undefined> = {};
  for (const event of inChild) {
    const sent = JSON.parse(await platform.fs.readTextFile(`${home}/stdin-${event}.json`));
    const check = (await schema(event, "input"))(sent);
    results[event] = !check.valid ? check.errorMessage : event.startsWith("Subagent") // their own agent fields come from the event's input
      ? (typeof sent.agent_id === "string" && typeof sent.agent_type === "string"
        ? undefined
        : "no agent fields")
      : sent.agent_id !== "t-agent1" || sent.agent_type !== "code-explorer"
      ? `no agent fields: ${JSON.stringify(sent)}`
      : undefined;
  }
  assert.deepStrictEqual(results, Object.fromEntries(inChild.map((e) => [e, undefined])));
});

/** Outputs Claude Code documents for each event (decisions Trellis applies), plus a `metrics` extra. */
const DOCUMENTED: Record<HookEventName, unknown[]> = {
  PreToolUse: [
    {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "no",
      },
    },
    { decision: "block", reason: "no", systemMessage: "blocked" },
    {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        updatedInput: { command: "ls -la" },
        additionalContext: "rewrote",
      },
    },
  ],
  PermissionRequest: [
    {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "no" },
      },
    },
    { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } },
  ],
  PostToolUse: [
    { decision: "block", reason: "tests failed" },
    {
      metrics: { pattern_hits: 1 },
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "eval()" },
    },
    { suppressOutput: true },
  ],
  PreCompact: [{ systemMessage: "compacting" }],
  PostCompact: [{ continue: true }],
  SessionStart: [{ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" } }],
  UserPromptSubmit: [
    { decision: "block", reason: "secret" },
    { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ctx" } },
  ],
  SubagentStart: [{ hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "ctx" } }],
  SubagentStop: [{ decision: "block", reason: "more" }],
  Stop: [
    { decision: "block", reason: "go on" },
    { continue: false, stopReason: "done" },
    { hookSpecificOutput: { hookEventName: "Stop", additionalContext: "check the tests" } },
  ],
  // #24 item 1: the events Claude Code added, with the outputs its hooks reference documents.
  SessionEnd: [{ systemMessage: "bye" }, { suppressOutput: true }],
  Notification: [{ systemMessage: "notified" }],
  PostToolUseFailure: [
    {
      hookSpecificOutput: {
        hookEventName: "PostToolUseFailure",
        additionalContext: "the test runner needs -A",
      },
    },
  ],
  UserPromptExpansion: [
    { decision: "block", reason: "this command is disabled here" },
    { hookSpecificOutput: { hookEventName: "UserPromptExpansion", additionalContext: "ctx" } },
  ],
  StopFailure: [{ systemMessage: "the model failed" }],
  PermissionDenied: [{ hookSpecificOutput: { hookEventName: "PermissionDenied", retry: true } }],
  PostToolBatch: [
    { hookSpecificOutput: { hookEventName: "PostToolBatch", additionalContext: "all calls done" } },
    { decision: "block", reason: "run the linter before going on" },
  ],
  Elicitation: [
    { hookSpecificOutput: { hookEventName: "Elicitation", action: "accept", content: { env: "staging" } } },
  ],
  ElicitationResult: [
    { hookSpecificOutput: { hookEventName: "ElicitationResult", action: "decline" } },
  ],
  InstructionsLoaded: [{ suppressOutput: true }],
  ConfigChange: [{ decision: "block", reason: "settings are locked during a release" }],
  CwdChanged: [{ systemMessage: "moved" }],
  Interrupt: [{ systemMessage: "interrupted" }],
};

function readOutput(event: HookEventName, output: unknown) {
  const h = handler({ event, command: "true" });
  const stdout = JSON.stringify(output);
  return interpretRun(event, h, {
    code: 0,
    signal: null,
    stdout,
    stderr: "",
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    aborted: false,
    durationMs: 0,
  });
}

Deno.test("every documented output matches its output schema fixture and Trellis reads it without error (HK-8)", async () => {
  const problems: string[] = [];
  for (const event of HOOK_EVENTS) {
    const check = await schema(event, "output");
    for (const output of DOCUMENTED[event]) {
      const valid = check(output);
      if (!valid.valid) problems.push(`${event} schema: ${valid.errorMessage}`);
      const effect = readOutput(event, output);
      if (effect.error !== undefined) problems.push(`${event} Trellis: ${effect.error}`);
    }
  }
  assert.deepStrictEqual(problems, []);
});

Deno.test("an output of the wrong shape fails both its schema fixture and Trellis's reading (HK-8)", async () => {
  const wrong: [HookEventName, unknown, string][] = [
    [
      "PreToolUse",
      { decision: 5 },
      'PreToolUse hook returned invalid JSON output: decision: Invalid option: expected one of "approve"|"block"',
    ],
    [
      "Stop",
      { continue: "no" },
      "Stop hook returned invalid JSON output: continue: Invalid input: expected boolean, received string",
    ],
    [
      "SessionStart",
      { hookSpecificOutput: { hookEventName: "Stop" } },
      'SessionStart hook returned invalid JSON output: hookSpecificOutput.hookEventName: Invalid input: expected "SessionStart"',
    ],
  ];
  const seen = [];
  for (const [event, output] of wrong) {
    seen.push([event, (await schema(event, "output"))(output).valid, readOutput(event, output).error]);
  }
  assert.deepStrictEqual(seen, wrong.map(([event, , error]) => [event, false, error]));
});

Deno.test("each event's label — in state keys, run ids and the trust identity — is its name in snake_case, one per event", async () => {
  const { eventLabel } = await import("../../lib/hooks/mod.ts");
  const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  for (const event of HOOK_EVENTS) assert.equal(eventLabel(event), snake(event), event);
  assert.equal(new Set(HOOK_EVENTS.map(eventLabel)).size, HOOK_EVENTS.length);
});
