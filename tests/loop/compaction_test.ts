import assert from "node:assert/strict";
import {
  compactConversation,
  type CompactionRecord,
  type CompactionSettings,
  ContextMeter,
  noTtyApprover,
  runTurn,
  SUMMARY_PREFIX,
  type TurnOptions,
} from "../../lib/loop/mod.ts";
import { createModelClient, resolveProvider, toResponsesBody } from "../../lib/model/mod.ts";
import type { ConversationItem, LifecycleHooks, TrellisEventBody } from "../../lib/shared/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { call, catalogOf, fakeTool, hooksWith, recorder, say } from "./_fakes.ts";

// #15 item 6: automatic compaction between steps, against the real fixture model server with a
// small context window. The summary request is answered by a `replies` entry wherever it falls.

const SUMMARY_REPLY = { when_input_contains: "Context compaction:", text: "Summary {n}" };

async function fixture(script: FixtureScript) {
  const server = await startFixtureModelServer({ script });
  const provider = resolveProvider({
    model_provider: "fixture",
    model_providers: { fixture: { base_url: server.url, request_max_retries: 0, stream_max_retries: 0 } },
  }, () => undefined);
  return { server, model: createModelClient(provider, { onRetry: () => {} }) };
}

/** Wire `input` of a request made of `items` (what the fixture server logs). */
const wire = (items: ConversationItem[]) =>
  toResponsesBody({ model: "m", instructions: "", input: items, tools: [], parallelToolCalls: true }).input;

const user = (content: string): ConversationItem => ({ type: "message", role: "user", content });
const summaryOf = (text: string) => user(`${SUMMARY_PREFIX}\n\n${text}`);
const dev = (content: string): ConversationItem => ({ type: "message", role: "developer", content });

function hookLog() {
  const calls: unknown[] = [];
  const hooks: LifecycleHooks = hooksWith({
    preCompact: (_ctx, input) => Promise.resolve(void calls.push(["PreCompact", input])),
    postCompact: (_ctx, input) => Promise.resolve(void calls.push(["PostCompact", input])),
    sessionStart: (_ctx, input) => {
      calls.push(["SessionStart", input]);
      return Promise.resolve({ additionalContexts: ["context after compaction"] });
    },
  });
  return { calls, hooks };
}

function turnOptions(
  model: TurnOptions["model"],
  settings: CompactionSettings,
  extra: Partial<TurnOptions> = {},
) {
  const rec = recorder();
  const persisted: CompactionRecord[] = [];
  const opts: TurnOptions = {
    turnId: "t1",
    model,
    modelName: "m",
    instructions: "be good",
    history: [],
    prompt: "do it",
    injected: [],
    captureTools: catalogOf([fakeTool("read", { parallel: true })]),
    hooks: hooksWith({}),
    hookContext: { sessionId: "s", cwd: "/w", model: "m", permissionMode: "default", transcriptPath: null },
    approver: noTtyApprover,
    approvalPolicy: "on-request",
    events: rec.sink,
    record: rec.record,
    maxSteps: 10,
    signal: new AbortController().signal,
    cwd: "/w",
    compaction: {
      meter: new ContextMeter(),
      settings,
      persist: (record) => Promise.resolve(void persisted.push(record)),
    },
    ...extra,
  };
  return { opts, rec, persisted };
}

const compactionItems = (events: TrellisEventBody[]) =>
  events.flatMap((e) =>
    (e.type === "item.started" || e.type === "item.completed") && e.item.type === "context_compaction"
      ? [{ event: e.type, ...e.item }]
      : []
  );

Deno.test("runTurn() compacts between steps once the reported context reaches the limit; the next step sees the prompt and the summary", async () => {
  const { server, model } = await fixture({
    steps: [
      { tool_calls: [{ name: "read", arguments: { p: 1 }, id: "c1" }], usage: { input_tokens: 3000 } },
      { text: "done" },
    ],
    replies: [SUMMARY_REPLY],
  });
  try {
    const { calls, hooks } = hookLog();
    const catalog = dev("<skills_instructions>\n## Skills");
    const earlier = [user("earlier"), catalog, say("earlier answer")];
    const skillBody = user("<skill>\n<name>notes</name>");
    const { opts, rec, persisted } = turnOptions(model, { autoLimit: 2000, elideAfterTurns: 3 }, {
      hooks,
      history: earlier,
      injected: [skillBody],
    });
    opts.compaction!.contextBlocks = (history) =>
      history.filter((i) => i.type === "message" && i.content.startsWith("<skills_instructions>"));
    const result = await runTurn(opts);
    assert.equal(result.status, "completed");
    const [first, summary, next] = server.requests as Record<string, any>[];
    const turnItems = [...earlier, user("do it"), skillBody, call("read", { p: 1 }, "c1"), {
      type: "function_call_output" as const,
      callId: "c1",
      output: 'read ok {"p":1}',
      status: "success" as const,
    }];
    assert.deepEqual(first.input, wire([...earlier, user("do it"), skillBody]));
    // The summary request: the whole history, then the prompt; no tools declared.
    assert.deepEqual(summary.input.slice(0, -1), wire(turnItems));
    assert.match(summary.input.at(-1).content[0].text, /^Context compaction:/);
    assert.equal(summary.tools, undefined);
    // Earlier user messages, the context blocks before the turn's prompt, its skill body after it.
    const replacement = [user("earlier"), catalog, user("do it"), skillBody, summaryOf("Summary 1")];
    assert.deepEqual(
      next.input,
      wire([...replacement, { type: "message", role: "developer", content: "context after compaction" }]),
    );
    assert.deepEqual(persisted, [{
      strategy: "summary",
      trigger: "auto",
      message: "Summary 1",
      replacement_history: replacement,
    }]);
    assert.deepEqual(calls, [
      ["PreCompact", { trigger: "auto", customInstructions: "" }],
      ["PostCompact", { trigger: "auto", summary: "Summary 1" }],
      ["SessionStart", { source: "compact" }],
    ]);
    const items = compactionItems(rec.events);
    assert.deepEqual(items.map((i) => [i.event, i.status, i.trigger, i.strategy]), [
      ["item.started", "in_progress", "auto", undefined],
      ["item.completed", "completed", "auto", "summary"],
    ]);
    assert.ok(items[1].tokens_before! >= 3000 && items[1].tokens_after! < 2000, JSON.stringify(items[1]));
    // The summary request's tokens count in the turn's usage.
    assert.ok(result.usage.inputTokens > 3000);
  } finally {
    await server.close();
  }
});

/** Four earlier turns, each with a 2,000-character tool output. */
function longHistory(): ConversationItem[] {
  return [1, 2, 3, 4].flatMap((i): ConversationItem[] => [
    user(`question ${i}`),
    call("read", { i }, `c${i}`),
    { type: "function_call_output", callId: `c${i}`, output: `${i}`.repeat(2000), status: "success" },
    say(`answer ${i}`),
  ]);
}

Deno.test("runTurn() elides tool outputs older than the last N turns first, and asks for no summary when that is enough", async () => {
  const { server, model } = await fixture({ steps: [{ text: "ok" }], replies: [SUMMARY_REPLY] });
  try {
    const { calls, hooks } = hookLog();
    const { opts, rec, persisted } = turnOptions(model, { autoLimit: 2000, elideAfterTurns: 2 }, {
      history: longHistory(),
      prompt: "next",
      hooks,
    });
    assert.equal((await runTurn(opts)).status, "completed");
    assert.equal(server.requests.length, 1, "no summary request");
    const outputs = (server.requests[0] as Record<string, any>).input
      .filter((i: any) => i.type === "function_call_output").map((i: any) => i.output.slice(0, 14));
    assert.deepEqual(outputs, ["[output elided", "[output elided", "[output elided", "4444444444444" + "4"]);
    assert.equal(persisted.length, 1);
    assert.equal(persisted[0].strategy, "elide_tool_outputs");
    assert.deepEqual(
      persisted[0].strategy === "elide_tool_outputs" && persisted[0].elided.map((e) => e.call_id),
      [
        "c1",
        "c2",
        "c3",
      ],
    );
    assert.deepEqual(calls, [], "eliding is not a summary: PreCompact/PostCompact do not fire");
    assert.deepEqual(compactionItems(rec.events).map((i) => [i.event, i.strategy]), [
      ["item.started", undefined],
      ["item.completed", "elide_tool_outputs"],
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("runTurn() keeps the history intact when the summary request fails, says so once, and finishes the turn", async () => {
  const { server, model } = await fixture({
    steps: [
      { tool_calls: [{ name: "read", arguments: {}, id: "c1" }], usage: { input_tokens: 3000 } },
      { tool_calls: [{ name: "read", arguments: {}, id: "c2" }], usage: { input_tokens: 3000 } },
      { text: "done anyway" },
    ],
    replies: [{ ...SUMMARY_REPLY, fail: { status: 500, body: "summarizer down" } }],
  });
  try {
    const { opts, rec, persisted } = turnOptions(model, { autoLimit: 2000, elideAfterTurns: 3 });
    const result = await runTurn(opts);
    assert.deepEqual([result.status, result.lastMessage], ["completed", "done anyway"]);
    const bodies = server.requests as Record<string, any>[];
    assert.equal(bodies.length, 4, "one failed summary request, not one per step");
    assert.deepEqual(
      bodies[2].input,
      bodies[1].input.slice(0, -1),
      "the next step sees the history as it was",
    );
    assert.deepEqual(persisted, []);
    const warnings = rec.events.flatMap((e) => e.type === "warning" ? [e.message] : []);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /^Cannot compact the conversation: .*HTTP 500.*summarizer down; the history is unchanged$/,
    );
    assert.deepEqual(compactionItems(rec.events).map((i) => [i.event, i.status]), [
      ["item.started", "in_progress"],
      ["item.completed", "failed"],
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("runTurn() ends as aborted when cancelled during the summary request, the history untouched", async () => {
  const { server, model } = await fixture({
    steps: [{ tool_calls: [{ name: "read", arguments: {}, id: "c1" }], usage: { input_tokens: 3000 } }],
    replies: [{ ...SUMMARY_REPLY, delay_ms: 10_000 }],
  });
  try {
    const controller = new AbortController();
    const { opts, rec, persisted } = turnOptions(model, { autoLimit: 2000, elideAfterTurns: 3 }, {
      signal: controller.signal,
      events: (e) => {
        rec.sink(e);
        if (e.type === "item.started" && e.item.type === "context_compaction") controller.abort();
      },
    });
    const result = await runTurn(opts);
    assert.equal(result.status, "aborted");
    assert.deepEqual(persisted, []);
    assert.deepEqual(rec.items.map((i) => i.type), ["message", "function_call", "function_call_output"]);
  } finally {
    await server.close();
  }
});

function ports(model: TurnOptions["model"], settings: CompactionSettings, events: TrellisEventBody[]) {
  const persisted: CompactionRecord[] = [];
  return {
    persisted,
    ports: {
      model,
      modelName: "m",
      instructions: "be good",
      hooks: hooksWith({}),
      hookContext: {
        sessionId: "s",
        turnId: "c",
        cwd: "/w",
        model: "m",
        permissionMode: "default",
        transcriptPath: null,
        signal: new AbortController().signal,
      },
      events: (e: TrellisEventBody) => void events.push(e),
      meter: new ContextMeter(),
      settings,
      apply: (record: CompactionRecord) => Promise.resolve(void persisted.push(record)),
      record: () => Promise.resolve(),
      itemId: "item_c",
    },
  };
}

Deno.test("compactConversation() fails on an empty summary and records nothing", async () => {
  const { server, model } = await fixture({ steps: [], replies: [{ ...SUMMARY_REPLY, text: "   " }] });
  try {
    const events: TrellisEventBody[] = [];
    const { ports: p, persisted } = ports(model, { autoLimit: null, elideAfterTurns: 3 }, events);
    const result = await compactConversation(p, {
      trigger: "manual",
      history: longHistory(),
      tokensBefore: 100,
    });
    assert.deepEqual([result.status, result.error], ["failed", {
      message: "the model returned an empty summary",
      code: "empty_summary",
    }]);
    assert.deepEqual(persisted, []);
  } finally {
    await server.close();
  }
});

Deno.test("compactConversation() leaves out the oldest items, a call with its output, while the summary request exceeds the window", async () => {
  // The window takes about two of the four turns (each ~540 tokens) plus the prompt.
  const { server, model } = await fixture({ steps: [], replies: [SUMMARY_REPLY], context_window: 1400 });
  try {
    const events: TrellisEventBody[] = [];
    const { ports: p, persisted } = ports(model, { autoLimit: null, elideAfterTurns: 3 }, events);
    const result = await compactConversation(p, {
      trigger: "manual",
      history: longHistory(),
      tokensBefore: 2200,
      instructions: "keep the numbers",
    });
    assert.equal(result.status, "compacted");
    const accepted = (server.requests as Record<string, any>[]).at(-1)!;
    assert.ok(server.requests.length > 1);
    // Never an output whose call was left out.
    const first = accepted.input[0];
    assert.notEqual(first.type, "function_call_output", JSON.stringify(first));
    assert.match(
      accepted.input.at(-1).content[0].text,
      /Additional instructions for this summary:\nkeep the numbers$/,
    );
    assert.ok(events.some((e) => e.type === "notice" && /left out the \d+ oldest items/.test(e.message)));
    // The replacement keeps every user message (they fit the budget), whatever the request left out.
    assert.deepEqual(
      persisted[0].strategy === "summary" && persisted[0].replacement_history,
      [
        user("question 1"),
        user("question 2"),
        user("question 3"),
        user("question 4"),
        summaryOf("Summary 1"),
      ],
    );
  } finally {
    await server.close();
  }
});

Deno.test("runTurn() asks for no summary when the instructions and tools alone reach the limit, and says why once (#15 item 6, #17 bad input: a 1 MB schema)", async () => {
  const { server, model } = await fixture({
    steps: [
      { tool_calls: [{ name: "read", arguments: { p: 1 }, id: "c1" }] },
      { text: "done" },
    ],
    replies: [SUMMARY_REPLY],
  });
  try {
    // ~5,000 estimated tokens of declarations against a 2,000-token limit: no history to blame.
    const huge = { ...fakeTool("read", { parallel: true }), description: "x".repeat(20_000) };
    const { opts, rec, persisted } = turnOptions(model, { autoLimit: 2000, elideAfterTurns: 3 }, {
      captureTools: catalogOf([huge]),
    });
    const result = await runTurn(opts);
    assert.equal(result.status, "completed");
    assert.equal(server.requests.length, 2, "no summary request: only the turn's two samplings");
    assert.deepEqual(persisted, []);
    assert.deepEqual(compactionItems(rec.events), []);
    const warnings = rec.events.flatMap((e) => e.type === "warning" ? [e.message] : []);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(
      warnings[0],
      /^the instructions and tool declarations alone take about \d+ tokens \(model_auto_compact_token_limit 2000\): compacting the history cannot bring the request under it/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("runTurn() with elide_after_turns = 1 keeps only this turn's outputs, every earlier one elided, still no summary (the bound)", async () => {
  const { server, model } = await fixture({ steps: [{ text: "ok" }], replies: [SUMMARY_REPLY] });
  try {
    const { opts } = turnOptions(model, { autoLimit: 2000, elideAfterTurns: 1 }, {
      history: longHistory(),
      prompt: "next",
    });
    assert.equal((await runTurn(opts)).status, "completed");
    assert.equal(server.requests.length, 1, "no summary request");
    const outputs = (server.requests[0] as Record<string, any>).input
      .filter((i: any) => i.type === "function_call_output").map((i: any) => i.output.slice(0, 14));
    assert.deepEqual(outputs, ["[output elided", "[output elided", "[output elided", "[output elided"]);
  } finally {
    await server.close();
  }
});
