import assert from "node:assert/strict";
import { toResponsesBody } from "../../lib/model/mod.ts";
import type { ConversationItem } from "../../lib/shared/mod.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis } from "./_binary.ts";
import { e2eSetup, modelFixture } from "./_setup.ts";

// #15 item 6 against the binary: a turn that outgrows a 3,000-token window compacts half-way,
// `--json` shows it, and `exec resume` sends the model the context the transcript recorded.

const WINDOW = ["-c", "model_context_window=3000", "-c", "model_providers.fixture.request_max_retries=0"];

Deno.test("exec --json compacts a turn that reaches the window half-way, and resume continues from the compacted context", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({ script: modelFixture("compaction_mid_turn") });
  let threadId: string;
  try {
    const run = await runTrellis([
      "exec",
      "--json",
      ...s.flags(server.url),
      ...WINDOW,
      "What is left in notes.md?",
    ], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const stream = events(run.stdout);
    threadId = stream[0].thread_id;
    const compaction = stream.filter((e) => e.item?.type === "context_compaction");
    assert.deepEqual(compaction.map((e) => [e.type, e.item.trigger, e.item.status, e.item.strategy]), [
      ["item.started", "auto", "in_progress", undefined],
      ["item.completed", "auto", "completed", "summary"],
    ]);
    assert.match(compaction[1].item.summary, /^Summary 1: the user asked/);
    assert.ok(compaction[1].item.tokens_before >= 2900, JSON.stringify(compaction[1].item));
    // Between the tool call and the answer, inside the turn.
    const types = stream.map((e) => e.item?.type ? `${e.type}:${e.item.type}` : e.type);
    assert.ok(
      types.indexOf("item.completed:tool_call") < types.indexOf("item.completed:context_compaction") &&
        types.indexOf("item.completed:context_compaction") < types.indexOf("item.completed:agent_message"),
      types.join(" "),
    );
    assert.equal(stream.at(-1)?.type, "turn.completed");
    assert.equal(server.requests.length, 3, "sampling, summary, sampling");
  } finally {
    await server.close();
  }

  // The transcript holds the replacement; resume sends it, then the new prompt.
  const transcript = (await Deno.readTextFile(`${s.env.TRELLIS_HOME}/sessions/${threadId}.jsonl`))
    .split("\n").filter((l) => l).map((l) => JSON.parse(l));
  const compacted = transcript.findIndex((l) => l.type === "compacted");
  assert.equal(transcript[compacted].strategy, "summary");
  const after = transcript.slice(compacted + 1).filter((l) => l.type === "item").map((l) => l.item);
  const expected: ConversationItem[] = [
    ...transcript[compacted].replacement_history,
    ...after,
    { type: "message", role: "user", content: "and now?" },
  ];
  const resumed = await startFixtureModelServer({ script: { steps: [{ text: "nothing else" }] } });
  try {
    const run = await runTrellis(
      ["exec", "resume", threadId, "--json", ...s.flags(resumed.url), ...WINDOW, "and now?"],
      { env: s.env, cwd: s.workspace },
    );
    assert.equal(run.code, 0, run.stderr);
    const body = resumed.requests[0] as Record<string, unknown>;
    assert.deepEqual(
      body.input,
      toResponsesBody({ model: "", instructions: "", input: expected, tools: [], parallelToolCalls: true })
        .input,
    );
    const input = body.input as { type: string; role?: string; content?: { text: string }[] }[];
    assert.ok(!input.some((i) => i.type === "function_call_output"), "the tool output was compacted away");
    assert.match(input[0].content![0].text, /^<skills_instructions>/, "the skills catalog was kept");
  } finally {
    await resumed.close();
  }
});

Deno.test("exec --json reports a compaction that fails, keeps the history, and finishes the turn", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({ script: modelFixture("compaction_summary_fails") });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), ...WINDOW, "What is left?"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const stream = events(run.stdout);
    const failed = stream.find((e) => e.type === "item.completed" && e.item.type === "context_compaction");
    assert.equal(failed?.item.status, "failed");
    assert.match(failed?.item.error, /HTTP 500.*summarizer unavailable/);
    assert.ok(stream.some((e) => e.type === "warning" && /the history is unchanged/.test(e.message)));
    assert.equal(stream.at(-1)?.type, "turn.completed");
    const last = server.requests.at(-1) as { input: { type: string }[] };
    assert.ok(
      last.input.some((i) => i.type === "function_call_output"),
      "the last sampling saw the tool output",
    );
  } finally {
    await server.close();
  }
});
