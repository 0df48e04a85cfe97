import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover, SUMMARY_PREFIX } from "../../lib/loop/mod.ts";
import { toResponsesBody } from "../../lib/model/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { ConversationItem, TrellisEventBody } from "../../lib/shared/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// #15 item 6 through Session, the real fixture model server and real hook scripts (HK-14).

const SUMMARY_REPLY = { when_input_contains: "Context compaction:", text: "Summary {n}" };
const signal = () => new AbortController().signal;
const user = (content: string): ConversationItem => ({ type: "message", role: "user", content });
const dev = (content: string): ConversationItem => ({ type: "message", role: "developer", content });
const summaryOf = (text: string) => user(`${SUMMARY_PREFIX}\n\n${text}`);
const wire = (items: ConversationItem[]) =>
  toResponsesBody({ model: "m", instructions: "", input: items, tools: [], parallelToolCalls: true }).input;

async function home() {
  const { root, env } = await makeSandboxHome();
  await platform.fs.mkdir(`${root}/ws`);
  return { root, env, cwd: `${root}/ws` };
}

type Home = Awaited<ReturnType<typeof home>>;

/** A session on `script`'s fixture server; `resume` continues a transcript. */
async function open(h: Home, script: FixtureScript, extra: { resume?: string; overrides?: string[] } = {}) {
  const server = await startFixtureModelServer({ script });
  const loaded = await loadConfig(platform.fs, {
    cwd: h.cwd,
    env: (name) => h.env[name],
    overrides: [
      "model_provider=fixture",
      "tool_set=trellis",
      `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
      "model_providers.fixture.request_max_retries=0",
      "model_providers.fixture.stream_max_retries=0",
      "skills.bundled.enabled=false",
      "model_context_window=3000", // auto compaction at 2,700 tokens
      // The Agent tool's one declaration, not Codex's five, as the token counts below were set for.
      'agents.tool_style="claude"',
      ...(extra.overrides ?? []),
    ],
  });
  const events: TrellisEventBody[] = [];
  // Hooks get the session's environment: this one's, with a shell that starts fast (HK-6).
  const env = { ...h.env, PATH: platform.env("PATH") ?? "/usr/bin:/bin", SHELL: "/bin/sh" };
  const session = await Session.open({
    platform: { ...platform, env: (name) => env[name as keyof typeof env], envAll: () => ({ ...env }) },
    loaded,
    events: (e) => events.push(e),
    approver: noTtyApprover,
    ...(extra.resume ? { resume: extra.resume } : {}),
  });
  await session.start(signal());
  const turn = (prompt: string) => session.runTurn({ prompt, maxSteps: 5, signal: signal() });
  const close = async () => {
    await session.close();
    await server.close();
  };
  return { server, session, events, turn, close, bodies: server.requests as Record<string, any>[] };
}

Deno.test("Session.runTurn() compacts before a turn when the history and the new prompt reach the limit", async () => {
  const h = await home();
  const s = await open(h, {
    steps: [{ text: "a1", usage: { input_tokens: 2800 } }, { text: "a2" }],
    replies: [SUMMARY_REPLY],
  });
  try {
    await s.turn("first");
    assert.equal((await s.turn("second")).status, "completed");
    assert.equal(s.bodies.length, 3);
    assert.deepEqual(s.bodies[2].input, wire([user("first"), summaryOf("Summary 1"), user("second")]));
    const order = s.events.flatMap((e) =>
      e.type === "turn.started"
        ? [e.type]
        : e.type === "item.completed" && e.item.type === "context_compaction"
        ? [`compaction ${e.item.trigger} ${e.item.status}`]
        : []
    );
    assert.deepEqual(order, ["turn.started", "compaction auto completed", "turn.started"]);
    assert.equal(s.session.context().autoCompactTokenLimit, 2700);
  } finally {
    await s.close();
  }
});

/** Hook scripts that save what they read, trusted the way a user trusts them (HK-3). */
async function compactionHooks(h: Home) {
  const script = async (name: string, body: string) => {
    const file = `${h.root}/${name}.sh`;
    await platform.fs.writeTextFile(file, `#!/bin/sh\n${body}\n`);
    await platform.fs.chmod(file, 0o755);
    return file;
  };
  const hook = (matcher: string, command: string) => ({ matcher, hooks: [{ type: "command", command }] });
  const hooks = {
    PreCompact: [
      hook("manual", await script("pre_manual", `cat > "${h.root}/pre-manual.json"`)),
      hook("auto", await script("pre_auto", `cat > "${h.root}/pre-auto.json"`)),
    ],
    PostCompact: [hook("manual|auto", await script("post", `cat > "${h.root}/post.json"`))],
    SessionStart: [hook(
      "compact",
      await script(
        "start_compact",
        `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"remember HERON"}}'`,
      ),
    )],
  };
  await platform.fs.writeTextFile(`${h.env.TRELLIS_HOME}/hooks.json`, JSON.stringify({ hooks }));
  const trust = await runCliCaptured(["hooks", "trust", "--all"], { env: h.env, cwd: h.cwd });
  assert.equal(trust.code, 0, trust.stderr);
}

Deno.test("Session.compact() summarizes by hand, runs PreCompact/PostCompact/SessionStart(compact) hooks, and a resume sends the model the same request", async () => {
  const h = await home();
  await compactionHooks(h);
  const long = "x".repeat(2000);
  const a = await open(h, {
    steps: [{ text: `a1 ${long}` }, { text: `a2 ${long}` }, { text: "a3" }],
    replies: [SUMMARY_REPLY],
  });
  let snapshot: string;
  let threadId: string;
  let running: Record<string, any>;
  try {
    await a.turn("first");
    await a.turn("second");
    const outcome = await a.session.compact({ signal: signal(), instructions: "keep HERON" });
    assert.deepEqual({ ...outcome, tokensBefore: 0, tokensAfter: 0 }, {
      status: "compacted",
      summary: "Summary 1",
      tokensBefore: 0,
      tokensAfter: 0,
    });
    assert.ok(outcome.tokensAfter < outcome.tokensBefore - 500, JSON.stringify(outcome));
    assert.deepEqual(a.session.transcript.items, [
      user("first"),
      user("second"),
      summaryOf("Summary 1"),
      dev("remember HERON"),
    ]);
    const pre = JSON.parse(await platform.fs.readTextFile(`${h.root}/pre-manual.json`));
    const post = JSON.parse(await platform.fs.readTextFile(`${h.root}/post.json`));
    assert.deepEqual([pre.hook_event_name, pre.trigger, pre.custom_instructions], [
      "PreCompact",
      "manual",
      "keep HERON",
    ]);
    assert.deepEqual([post.hook_event_name, post.trigger, post.compact_summary], [
      "PostCompact",
      "manual",
      "Summary 1",
    ]);
    assert.equal(
      (await platform.fs.stat(`${h.root}/pre-auto.json`)) !== null,
      false,
      "the auto matcher does not match a manual compaction",
    );
    // What a process that stops here leaves behind.
    threadId = a.session.threadId;
    snapshot = await platform.fs.readTextFile(`${h.env.TRELLIS_HOME}/sessions/${threadId}.jsonl`);
    await a.turn("third");
    running = a.bodies.at(-1)!;
  } finally {
    await a.close();
  }
  await platform.fs.writeTextFile(`${h.env.TRELLIS_HOME}/sessions/copy.jsonl`, snapshot);
  const b = await open(h, { steps: [{ text: "a3" }] }, { resume: "copy" });
  try {
    await b.turn("third");
    assert.deepEqual(b.bodies[0], running);
    assert.deepEqual(
      running.input,
      wire([user("first"), user("second"), summaryOf("Summary 1"), dev("remember HERON"), user("third")]),
    );
  } finally {
    await b.close();
  }
});

Deno.test("Session.compact() that fails leaves the history and the transcript as they were, and says why", async () => {
  const h = await home();
  const s = await open(h, {
    steps: [{ text: "a1" }],
    replies: [{ ...SUMMARY_REPLY, fail: { status: 500, body: "summarizer down" } }],
  });
  try {
    await s.turn("first");
    const before = [...s.session.transcript.items];
    const file = `${h.env.TRELLIS_HOME}/sessions/${s.session.threadId}.jsonl`;
    const written = await platform.fs.readTextFile(file);
    const outcome = await s.session.compact({ signal: signal() });
    assert.equal(outcome.status, "failed");
    assert.equal(outcome.error?.code, "model_http");
    assert.match(outcome.error!.message, /HTTP 500.*summarizer down/);
    assert.equal(outcome.tokensAfter, outcome.tokensBefore);
    assert.deepEqual(s.session.transcript.items, before);
    assert.equal(await platform.fs.readTextFile(file), written);
    assert.ok(
      s.events.some((e) => e.type === "warning" && /^Cannot compact the conversation/.test(e.message)),
    );
  } finally {
    await s.close();
  }
});

Deno.test("Session.compact() is skipped while a turn runs, and with nothing to compact", async () => {
  const h = await home();
  const s = await open(h, { steps: [{ text: "slow", delay_ms: 300 }], replies: [SUMMARY_REPLY] });
  try {
    const empty = await s.session.compact({ signal: signal() });
    assert.deepEqual([empty.status, empty.error?.code], ["skipped", "empty"]);
    const turn = s.turn("first");
    const during = await s.session.compact({ signal: signal() });
    assert.deepEqual([during.status, during.error?.code], ["skipped", "busy"]);
    await turn;
    assert.equal(s.bodies.length, 1, "no summary request was sent");
  } finally {
    await s.close();
  }
});
