import assert from "node:assert/strict";
import { Session, sessionContextLedger } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// #23 item 1 through Session and the real fixture model server speaking the Messages wire, as
// `model_provider = "anthropic"` with ANTHROPIC_BASE_URL pointing at it.

/**
 * What Claude Code 2.1.332 sent for `claude-sonnet-4-5` in its first request (read from its
 * captured requests, 2026-12-02): `max_tokens` 32,000; thinking enabled with 31,999 of them at its
 * default effort; `cache_control: ephemeral` on its system blocks (all but the billing header, which
 * Trellis has no counterpart of), on no tool, and on exactly one message block: the last block of the
 * last message, which moves to the tool_result on the next request.
 */
const CLAUDE_CODE_FIRST_REQUEST = {
  max_tokens: 32_000,
  thinking: { type: "enabled", budget_tokens: 31_999 },
};

const signal = () => new AbortController().signal;
type Body = Record<string, any>;

async function open(
  script: FixtureScript,
  overrides: string[] = [],
  again?: { home: Awaited<ReturnType<typeof makeSandboxHome>>; resume: string },
) {
  const home = again?.home ?? await makeSandboxHome();
  const { root, env: homeEnv } = home;
  const cwd = `${root}/ws`;
  if (!again) await platform.fs.mkdir(cwd);
  const server = await startFixtureModelServer({ script });
  const env: Record<string, string> = {
    ...homeEnv,
    PATH: platform.env("PATH") ?? "/usr/bin:/bin",
    SHELL: "/bin/sh",
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: server.url.replace(/\/v1$/, ""),
  };
  const loaded = await loadConfig(platform.fs, {
    cwd,
    env: (name) => env[name],
    overrides: [
      "model_provider=anthropic",
      "model=claude-sonnet-4-5",
      "skills.bundled.enabled=false",
      "tool_set=trellis", // the scripts call read_file (auto would give Claude Code's Read)
      ...overrides,
    ],
  });
  const events: TrellisEventBody[] = [];
  const session = await Session.open({
    platform: { ...platform, env: (name) => env[name], envAll: () => ({ ...env }) },
    loaded,
    events: (e) => events.push(e),
    approver: noTtyApprover,
    ...(again ? { resume: again.resume } : {}),
  });
  await session.start(signal());
  return {
    home,
    cwd,
    session,
    events,
    bodies: server.requests as Body[],
    turn: (prompt: string) => session.runTurn({ prompt, maxSteps: 5, signal: signal() }),
    close: async () => {
      await session.close();
      await server.close();
    },
  };
}

/** [message index, block index] of every message block carrying cache_control. */
function messageBreakpoints(body: Body): number[][] {
  return body.messages.flatMap((m: Body, i: number) =>
    (m.content as Body[]).flatMap((b, j) => b.cache_control ? [[i, j]] : [])
  );
}

function lastBlock(body: Body): number[] {
  const last = body.messages.length - 1;
  return [last, body.messages[last].content.length - 1];
}

Deno.test("claude-sonnet-4-5 on the Anthropic wire: the first request places cache_control and thinking as Claude Code does, and a tool_use → tool_result round trip completes (#23 item 1)", async () => {
  const s = await open({
    steps: [
      { reasoning: "Read it first.", tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }] },
      { reasoning: "It says HERON.", text: "The notes say HERON." },
    ],
  }, ["model_reasoning_effort=high"]);
  try {
    await platform.fs.writeTextFile(`${s.cwd}/notes.md`, "HERON\n");
    const outcome = await s.turn("What do the notes say?");
    assert.equal(outcome.status, "completed");
    assert.equal(s.bodies.length, 2);
    const [first, second] = s.bodies;
    assert.equal(first.model, "claude-sonnet-4-5");
    assert.equal(first.max_tokens, CLAUDE_CODE_FIRST_REQUEST.max_tokens);
    assert.deepEqual(first.thinking, CLAUDE_CODE_FIRST_REQUEST.thinking);
    assert.ok(first.system.length >= 1);
    assert.deepEqual(first.system.at(-1).cache_control, { type: "ephemeral" });
    assert.deepEqual(first.system[0].cache_control, { type: "ephemeral" });
    assert.equal(first.tools.some((t: Body) => "cache_control" in t), false, "Claude Code marks no tool");
    assert.ok(first.tools.some((t: Body) => t.name === "read_file" && t.input_schema?.type === "object"));
    assert.deepEqual(messageBreakpoints(first), [lastBlock(first)]);
    // The round trip: thinking and tool_use go back signed, the result follows with the breakpoint.
    const assistant = second.messages.at(-2);
    assert.deepEqual(assistant.content.map((b: Body) => b.type), ["thinking", "tool_use"]);
    const result = second.messages.at(-1).content[0];
    assert.equal(result.type, "tool_result");
    assert.equal(result.tool_use_id, assistant.content[1].id);
    assert.match(JSON.stringify(result.content), /HERON/);
    assert.deepEqual(messageBreakpoints(second), [lastBlock(second)]);
    const answer = s.events.flatMap((e) =>
      e.type === "item.completed" && e.item.type === "agent_message" ? [e.item.text] : []
    );
    assert.deepEqual(answer, ["The notes say HERON."]);
  } finally {
    await s.close();
  }
});

Deno.test("the Anthropic wire without model_reasoning_effort sends no thinking (the neighbour) (#23 item 1)", async () => {
  const s = await open({ steps: [{ text: "hi" }] });
  try {
    assert.equal((await s.turn("hello")).status, "completed");
    assert.equal("thinking" in s.bodies[0], false);
  } finally {
    await s.close();
  }
});

Deno.test("a 529 storm fails one turn with a clear error after bounded retries; the next turn is answered (#23 bad input)", async () => {
  const s = await open({
    steps: [{
      fail: {
        status: 529,
        body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
        times: 3,
      },
      text: "Back again.",
    }],
  }, ["model_providers.anthropic.request_max_retries=2", "model_providers.anthropic.stream_max_retries=0"]);
  try {
    const failed = await s.turn("first");
    assert.equal(failed.status, "failed");
    const errors = s.events.flatMap((e) => e.type === "turn.failed" ? [JSON.stringify(e)] : []);
    assert.ok(errors.some((e) => /HTTP 529 after 3 attempts: Overloaded/.test(e)), errors.join("\n"));
    assert.equal(s.bodies.length, 3);
    assert.equal((await s.turn("second")).status, "completed");
  } finally {
    await s.close();
  }
});

Deno.test("compaction works on the Anthropic wire: the summary request and the next request go as Messages (#23 item 1)", async () => {
  const s = await open({
    steps: [{ text: "a1", usage: { input_tokens: 2800 } }, { text: "a2" }],
    replies: [{ when_input_contains: "Context compaction:", text: "Summary {n}" }],
  }, ["model_context_window=3000"]);
  try {
    await s.turn("first");
    assert.equal((await s.turn("second")).status, "completed");
    assert.equal(s.bodies.length, 3);
    assert.match(JSON.stringify(s.bodies[1].messages.at(-1)), /Context compaction:/);
    assert.equal("tools" in s.bodies[1], false, "the summary request declares no tools");
    const texts = s.bodies[2].messages.flatMap((m: Body) => m.content.map((b: Body) => b.text ?? ""));
    assert.ok(texts.some((t: string) => t.includes("Summary 1")), JSON.stringify(texts));
    assert.ok(!texts.includes("a1"), "the compacted answer is gone");
  } finally {
    await s.close();
  }
});

Deno.test("the context ledger of a Claude session carries the provider's exact total from count_tokens (#23 item 1)", async () => {
  const s = await open({ steps: [{ text: "hi" }] });
  try {
    const ledger = await sessionContextLedger(s.session, { prompt: "count me", preview: false });
    assert.equal(ledger.encoding, "estimate", "the rows are estimates: Claude's tokenizer is not public");
    assert.equal(ledger.providerTotal?.source, "count_tokens");
    assert.ok((ledger.providerTotal?.tokens ?? 0) > 0);
    assert.notEqual(
      ledger.providerTotal?.tokens,
      ledger.total,
      "the fixture counts the wire body, not the text",
    );
    assert.ok(ledger.notes.some((n) => n.includes("count_tokens")), ledger.notes.join("\n"));
    assert.equal(s.bodies.length, 0, "counting samples nothing");
  } finally {
    await s.close();
  }
});

Deno.test("a count_tokens that fails leaves the labelled estimate and says why (the neighbour) (#23 item 1)", async () => {
  const s = await open({ steps: [{ text: "hi" }] }, [
    'model_providers.anthropic.http_headers={ "anthropic-version" = "" }',
  ]);
  try {
    const ledger = await sessionContextLedger(s.session, { prompt: "count me", preview: false });
    assert.equal(ledger.providerTotal, undefined);
    assert.equal(ledger.encoding, "estimate");
    assert.ok(ledger.warnings.some((w) => /count_tokens: .*HTTP 400/.test(w)), ledger.warnings.join("\n"));
  } finally {
    await s.close();
  }
});

Deno.test("trellis debug context on the Anthropic wire prints the provider's exact total beside the estimate (#23 item 1)", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.mkdir(`${root}/ws`);
  const server = await startFixtureModelServer({ script: { steps: [] } });
  try {
    const run = await runCliCaptured(
      ["debug", "context", "-c", "model_provider=anthropic", "-c", "model=claude-sonnet-4-5", "hello"],
      {
        env: { ...env, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: server.url },
        cwd: `${root}/ws`,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /tokens by ESTIMATE \(characters \/ 4\)/);
    assert.match(run.stdout, /^\s+[\d,]+\s+\S+\s+total counted by the provider \(exact\)$/m);
    assert.equal(server.requests.length, 0, "debug context samples nothing");
  } finally {
    await server.close();
  }
});

Deno.test("a thinking block without its signature fails that turn with a clear error; the session goes on (#23 bad input)", async () => {
  const s = await open({
    steps: [
      { reasoning: "Unverifiable.", signature: false, text: "Answer." },
      { reasoning: "Verified.", text: "The session goes on." },
    ],
  }, ["model_reasoning_effort=low", "model_providers.anthropic.stream_max_retries=0"]);
  try {
    assert.equal((await s.turn("first")).status, "failed");
    const failures = s.events.flatMap((e) => e.type === "turn.failed" ? [JSON.stringify(e)] : []);
    assert.ok(
      failures.some((f) => f.includes("a thinking block arrived without its signature")),
      failures.join("\n"),
    );
    assert.equal((await s.turn("second")).status, "completed");
    assert.equal(
      JSON.stringify(s.bodies[1]).includes("Unverifiable."),
      false,
      "the unsigned block is not sent back",
    );
  } finally {
    await s.close();
  }
});

Deno.test("a resumed Claude session sends the recorded thinking back with its signature (#23 item 1)", async () => {
  const script: FixtureScript = {
    steps: [
      { reasoning: "Read it first.", tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }] },
      { reasoning: "It says HERON.", text: "HERON." },
    ],
  };
  const a = await open(script, ["model_reasoning_effort=high"]);
  let threadId: string;
  try {
    await platform.fs.writeTextFile(`${a.cwd}/notes.md`, "HERON\n");
    assert.equal((await a.turn("What do the notes say?")).status, "completed");
    threadId = a.session.threadId;
  } finally {
    await a.close();
  }
  const b = await open({ steps: [{ reasoning: "Still HERON.", text: "Yes." }] }, [
    "model_reasoning_effort=high",
  ], {
    home: a.home,
    resume: threadId,
  });
  try {
    assert.equal((await b.turn("Sure?")).status, "completed", "the fixture accepted the resumed signatures");
    const sent = b.bodies[0].messages.flatMap((m: Body) => m.content as Body[]);
    const thinking = sent.filter((block: Body) => block.type === "thinking");
    assert.deepEqual(thinking.map((t: Body) => t.thinking), ["Read it first.", "It says HERON."]);
    assert.ok(thinking.every((t: Body) => /^sig:/.test(t.signature)));
  } finally {
    await b.close();
  }
});
