/**
 * #23 item 3: request_user_input in Codex's shape. `trellis exec` has no one to ask: the call is
 * refused with a reason the model can act on, and the turn goes on; with a person (the interactive
 * mode's questioner) the answers come back keyed by question id.
 */
import assert from "node:assert/strict";
import { execWithCalls, outputText } from "./_everyday_exec.ts";
import { platform } from "../../lib/platform/mod.ts";
import { createEverydayTools, type PermissionProfile, toolEnv } from "../../lib/tools/mod.ts";
import type { UserQuestion } from "../../lib/shared/mod.ts";

const QUESTION = {
  id: "scope",
  header: "Scope",
  question: "Fix only the bug, or refactor too?",
  options: [{ label: "Only the bug", description: "Smallest change" }, {
    label: "Refactor",
    description: "Cleaner",
  }],
};

Deno.test("exec: request_user_input is refused clearly (no terminal) and the turn goes on to the answer", async () => {
  const run = await execWithCalls(
    [[{ name: "request_user_input", arguments: { questions: [QUESTION] } }]],
    [],
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    outputText(run.outputs[0].output),
    /^request_user_input is not available: no one is at a terminal to answer \(trellis exec\)\. Decide yourself/,
  );
  assert.equal(run.events.findLast((e) => e.type === "item.completed")?.item.text, "done");
});

Deno.test("request_user_input with a person: answers keyed by id; a dismissal is said; a question without options' labels is refused", async () => {
  const asked: UserQuestion[][] = [];
  let reply: { id: string; answer: string }[] | null = [{ id: "scope", answer: "Refactor" }];
  const env = toolEnv({
    platform,
    profile: {} as PermissionProfile,
    sandbox: { available: false, reason: "test" },
    everyday: { questioner: { ask: (questions) => (asked.push(questions), Promise.resolve(reply)) } },
  });
  const tool = createEverydayTools(env, "codex").find((t) => t.name === "request_user_input")!;
  assert.equal(tool.hookName, "AskUserQuestion");
  const ctx = {
    callId: "c",
    cwd: "/",
    signal: new AbortController().signal,
    emit: () => {},
    escalated: false,
  };
  const args = tool.parseArguments(JSON.stringify({ questions: [QUESTION] }));
  assert.equal((await tool.run(args, ctx)).output, '{"answers":{"scope":{"answers":["Refactor"]}}}');
  assert.deepEqual(asked[0], [QUESTION]);
  reply = null;
  assert.equal((await tool.run(args, ctx)).output, "The user dismissed the questions without answering.");
  assert.throws(
    () => tool.parseArguments({ questions: [{ ...QUESTION, options: [{ description: "no label" }] }] }),
    /questions\.0\.options\.0\.label/,
  );
  assert.throws(() => tool.parseArguments({ questions: [] }), /questions/);
});
