import assert from "node:assert/strict";
import { noTtyApprover, runTurn, type TurnOptions } from "../../lib/loop/mod.ts";
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

function turn(steps: ScriptedStep[]) {
  const rec = recorder();
  const options: TurnOptions = {
    turnId: "t1",
    model: scriptedModel(steps),
    modelName: "m",
    instructions: "",
    history: [],
    prompt: "go",
    injected: [],
    captureTools: catalogOf([fakeTool("read")]),
    hooks: hooksWith({}),
    hookContext: { sessionId: "s", cwd: "/w", model: "m", permissionMode: "default", transcriptPath: null },
    approver: noTtyApprover,
    approvalPolicy: "on-request",
    events: rec.sink,
    record: rec.record,
    maxSteps: 10,
    signal: new AbortController().signal,
    cwd: "/w",
  };
  return { run: () => runTurn(options), rec };
}

const usage = (input: number) => ({
  input_tokens: input,
  cached_input_tokens: 0,
  output_tokens: 0,
  reasoning_output_tokens: 0,
});

Deno.test("runTurn() reports the turn's usage, summed over its samplings, in Codex's fields", async () => {
  const { run, rec } = turn([[call("read", {})], [say("done")]]);
  await run();
  assert.deepEqual(rec.events.at(-1), { type: "turn.completed", turn_id: "t1", usage: usage(2), steps: 2 });
});

Deno.test("runTurn() reports what a failed turn consumed, and no usage when no sampling completed", async () => {
  const late = turn([[call("read", {})], { breakAfter: [] }]);
  await late.run();
  const failed = late.rec.events.at(-1);
  assert.deepEqual(failed?.type === "turn.failed" && failed.usage, usage(1));
  const early = turn([{ breakAfter: [] }]);
  await early.run();
  const first = early.rec.events.at(-1);
  assert.deepEqual(first?.type === "turn.failed" && "usage" in first, false);
});
