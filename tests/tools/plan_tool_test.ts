/**
 * #23 item 3: the plan tools. update_plan (Codex's shape) through `trellis exec --json` and the
 * real fixture model gives Codex's todo_list item — started, updated with the same id, completed
 * just before turn.completed; TodoWrite (Claude Code's shape) sets the same plan; hooks see both
 * as TodoWrite.
 */
import assert from "node:assert/strict";
import { execWithCalls, outputText } from "./_everyday_exec.ts";
import { platform } from "../../lib/platform/mod.ts";
import { allEverydayTools, type PermissionProfile, toolEnv } from "../../lib/tools/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";

const SCRIPT = new URL("../../fixtures/models/update_plan.yaml", import.meta.url);

Deno.test("exec --json: update_plan is Codex's todo_list item, started, updated (same id), completed before turn.completed", async () => {
  const run = await execWithCalls(SCRIPT, []);
  assert.equal(run.code, 0, run.stderr);
  const todo = run.events.filter((e) => e.item?.type === "todo_list");
  assert.deepEqual(todo.map((e) => e.type), ["item.started", "item.updated", "item.completed"]);
  assert.equal(new Set(todo.map((e) => e.item.id)).size, 1);
  assert.deepEqual(todo[0].item.items, [
    { text: "Read the config", completed: false, status: "in_progress" },
    { text: "Fix the typo", completed: false, status: "pending" },
  ]);
  assert.equal(todo[0].item.explanation, "Two steps to go.");
  assert.deepEqual(todo[1].item.items.map((i: { completed: boolean }) => i.completed), [true, false]);
  // The turn's end completes the last plan, right before turn.completed.
  const types = run.events.map((e) => e.type);
  assert.equal(run.events[types.indexOf("turn.completed") - 1].item?.type, "todo_list");
  // The plan.updated event itself is never printed (a Codex reader sees only the item).
  assert.equal(types.includes("plan.updated"), false);
  // The model was told; two steps in progress at once were refused, and the plan kept.
  assert.match(outputText(run.outputs[0].output), /^Plan updated \(0\/2 done\)$/);
  assert.match(outputText(run.outputs[1].output), /^Plan updated \(1\/2 done\)$/);
  assert.match(
    outputText(run.outputs[2].output),
    /Plan not updated: 2 steps are in_progress; keep at most one/,
  );
});

Deno.test("exec (text): the plan is printed on stderr at each update", async () => {
  const run = await execWithCalls(SCRIPT, [], undefined, "go", false);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /plan:\n {2}\[>\] Read the config\n {2}\[ \] Fix the typo\n/);
  assert.match(run.stderr, /plan:\n {2}\[x\] Read the config\n {2}\[>\] Fix the typo\n/);
});

Deno.test("TodoWrite takes Claude Code's todos[{content, status, activeForm}] and sets the same plan; hooks see TodoWrite", async () => {
  const env = toolEnv({
    platform,
    profile: {} as PermissionProfile,
    sandbox: { available: false, reason: "test" },
  });
  const tools = allEverydayTools(env);
  const todoWrite = tools.find((t) => t.name === "TodoWrite")!;
  const updatePlan = tools.find((t) => t.name === "update_plan")!;
  const events: TrellisEventBody[] = [];
  const ctx = {
    callId: "c1",
    cwd: "/",
    signal: new AbortController().signal,
    emit: (e: TrellisEventBody) => void events.push(e),
    escalated: false,
  };
  const todos = [
    { content: "Run the tests", status: "in_progress", activeForm: "Running the tests" },
    { content: "Commit", status: "pending", activeForm: "Committing" },
  ];
  const result = await todoWrite.run(todoWrite.parseArguments({ todos }), ctx);
  assert.equal(result.output, "Plan updated (0/2 done)");
  assert.deepEqual(events, [{
    type: "plan.updated",
    call_id: "c1",
    plan: [{ step: "Running the tests", status: "in_progress" }, { step: "Commit", status: "pending" }],
  }]);
  assert.throws(
    () => todoWrite.parseArguments({ todos: [{ content: "x", status: "doing", activeForm: "x" }] }),
    /todos\.0\.status/,
  );
  assert.throws(
    () => todoWrite.parseArguments({ todos: [{ content: "x", status: "pending" }] }),
    /activeForm/,
  );
  // Both faces reach hooks as TodoWrite with Claude's input shape, and a rewrite comes back.
  assert.equal(todoWrite.hookName, "TodoWrite");
  assert.equal(updatePlan.hookName, "TodoWrite");
  const planArgs = updatePlan.parseArguments({ plan: [{ step: "Build", status: "pending" }] });
  assert.deepEqual(updatePlan.toHookInput!(planArgs), {
    todos: [{ content: "Build", status: "pending", activeForm: "Build" }],
  });
  assert.deepEqual(
    updatePlan.fromHookInput!({ todos: [{ content: "Ship", status: "completed", activeForm: "Shipping" }] }),
    { plan: [{ step: "Ship", status: "completed" }] },
  );
});
