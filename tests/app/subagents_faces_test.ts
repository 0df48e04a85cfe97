import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { openFixtureSession } from "../helpers/fixture_session.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

// #22 item 2: the two faces of one subagent engine, through Session and the real fixture model
// server. The Codex face is compared with what Codex 0.171 sends (fixtures/agents/
// codex_multi_agent_v1.json: its `multi_agent_v1` declarations, descriptions removed — captured
// from `codex exec` against the fixture server, /work/captures/codex-multiagent/).

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

async function open(script: FixtureScript, overrides: string[] = []) {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  const server = await startFixtureModelServer({ script });
  const { session, events } = await openFixtureSession({
    cwd,
    env,
    url: server.url,
    noRetries: true,
    overrides: [
      ...overrides,
    ],
  });
  const run = (prompt: string) =>
    session.runTurn({ prompt, maxSteps: 10, signal: new AbortController().signal });
  const close = async () => {
    await session.close();
    await server.close();
  };
  return { session, events, run, close, bodies: server.requests as Body[] };
}

const codex = (name: string, args: Record<string, unknown>) => ({
  name,
  namespace: "multi_agent_v1",
  arguments: args,
});
const outputs = (body: Body): string[] =>
  body.input.filter((i: Body) => i.type === "function_call_output").map((i: Body) => i.output);
const userTexts = (body: Body): string[] =>
  body.input.filter((i: Body) => i.type === "message" && i.role === "user")
    .map((i: Body) => i.content.map((c: Body) => c.text).join(""));
const isParent = (b: Body) => !userTexts(b).some((t) => t.startsWith("CHILD"));

function stripDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDescriptions);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).filter(([k]) => k !== "description").map(([k, v]) => [k, stripDescriptions(v)]),
  );
}

Deno.test("#22 item 2: an OpenAI-family model (auto) is offered Codex's multi_agent_v1 namespace, shaped as Codex 0.171 sends it", async () => {
  const s = await open({ steps: [{ text: "hi" }] });
  try {
    await s.run("hello");
    const tools: Body[] = s.bodies[0].tools;
    assert.ok(!tools.some((t) => t.name === "Agent"), "the Claude face is not offered beside it");
    const ns = tools.find((t) => t.type === "namespace")!;
    const codexShape = JSON.parse(
      await platform.fs.readTextFile("fixtures/agents/codex_multi_agent_v1.json"),
    );
    assert.deepEqual({ type: ns.type, name: ns.name }, codexShape.namespace);
    const ours = ns.tools.map(stripDescriptions).sort((a: Body, b: Body) => a.name.localeCompare(b.name));
    // Side by side: every member's type, name, strictness and parameter schema are Codex's (the
    // capture had a role defined, so its spawn_agent has `agent_type`, as ours always has).
    assert.deepEqual(ours, codexShape.tools);
  } finally {
    await s.close();
  }
});

Deno.test('#22 item 2: agents.tool_style = "claude" gives the same model Claude Code\'s Agent tool instead (the neighbour)', async () => {
  const s = await open({ steps: [{ text: "hi" }] }, ['agents.tool_style="claude"']);
  try {
    await s.run("hello");
    const names = s.bodies[0].tools.map((t: Body) => t.name);
    assert.ok(names.includes("Agent"), names.join(","));
    assert.ok(!names.includes("multi_agent_v1"));
  } finally {
    await s.close();
  }
});

Deno.test("#22 items 2, 3, 6: spawn_agent → {agent_id, nickname}; wait_agent, the <subagent_notification>, close_agent, an unknown id; usage counts the child", async () => {
  const usage = { input_tokens: 10, cached_tokens: 0, output_tokens: 1, reasoning_tokens: 0 };
  const s = await open({
    steps: [
      { tool_calls: [codex("spawn_agent", { message: "CHILD-ONE: say hi" })], usage },
      { tool_calls: [codex("wait_agent", { targets: ["{output.agent_id}"], timeout_ms: 10000 })], usage },
      { tool_calls: [codex("close_agent", { target: "{output.agent_id}" })], usage },
      { tool_calls: [codex("resume_agent", { id: "no-such-agent" })], usage },
      { text: "parent done", usage },
    ],
    replies: [{
      when_input_contains: "CHILD-ONE",
      text: "child one done",
      delay_ms: 100,
      usage: { input_tokens: 1000, cached_tokens: 0, output_tokens: 100, reasoning_tokens: 0 },
    }],
  });
  try {
    const result = await s.run("use a subagent");
    assert.equal(result.status, "completed");
    const last = s.bodies.filter(isParent).at(-1)!;
    const [spawned, waited, closed, unknown] = outputs(last);
    const { agent_id, nickname } = JSON.parse(spawned);
    assert.match(agent_id, /-agent1$/);
    assert.equal(typeof nickname, "string");
    assert.deepEqual(JSON.parse(waited), {
      status: { [agent_id]: { completed: "child one done" } },
      timed_out: false,
    });
    assert.deepEqual(JSON.parse(closed), { previous_status: { completed: "child one done" } });
    assert.match(unknown, /agent "no-such-agent" not found/);
    // Codex's notification, as it sends it: a user message with the agent's final status.
    const note = userTexts(last).find((t) => t.startsWith("<subagent_notification>"))!;
    assert.equal(
      note,
      `<subagent_notification>\n${
        JSON.stringify({ agent_path: agent_id, status: { completed: "child one done" } })
      }\n</subagent_notification>`,
    );
    // The child's own thread: a transcript linked to the parent.
    const started = s.events.find((e) => e.type === "agent.started")!;
    const header = JSON.parse((await platform.fs.readTextFile(started.transcript!)).split("\n")[0]);
    assert.equal(header.meta.parent.threadId, s.session.threadId);
    // exec --json: Codex's collab_tool_call items, with the agents each call named and their states.
    // deno-lint-ignore no-explicit-any
    const collab = s.events.filter((e: any) =>
      e.type === "item.completed" && e.item.type === "collab_tool_call"
    )
      // deno-lint-ignore no-explicit-any
      .map((e: any) => e.item);
    assert.deepEqual(collab.map((i) => i.tool), ["spawn_agent", "wait", "close_agent", "resume_agent"]);
    assert.deepEqual(collab[0].agents_states, { [agent_id]: { status: "pending_init", message: null } });
    assert.equal(collab[0].prompt, "CHILD-ONE: say hi");
    assert.deepEqual(collab[1].agents_states, {
      [agent_id]: { status: "completed", message: "child one done" },
    });
    assert.equal(collab[3].status, "failed");
    // turn.completed counts the child's tokens: 5 parent requests of 10, one child request of 1000.
    assert.equal(result.usage.inputTokens, 1050);
    const completed = s.events.find((e) => e.type === "turn.completed")!;
    assert.equal(completed.usage!.input_tokens, 1050);
  } finally {
    await s.close();
  }
});

Deno.test("#22 item 2: Agent with run_in_background answers at once; the child's answer arrives as Claude Code's <task-notification>", async () => {
  const s = await open({
    steps: [
      {
        tool_calls: [{
          name: "Agent",
          arguments: {
            subagent_type: "general-purpose",
            description: "greet",
            prompt: "CHILD-BG: say hi",
            run_in_background: true,
          },
        }],
      },
      { text: "launched" },
      { text: "parent done" },
    ],
    replies: [{ when_input_contains: "CHILD-BG", text: "background hi", delay_ms: 200 }],
  }, ['agents.tool_style="claude"']);
  try {
    const result = await s.run("greet in the background");
    assert.equal(result.status, "completed");
    assert.equal(result.lastMessage, "parent done");
    const parents = s.bodies.filter(isParent);
    assert.match(outputs(parents[1])[0], /^Agent "greet" started in the background\.\nagentId: .*-agent1\n/);
    // The turn stayed open for the child; its answer is the next user message of the parent.
    const note = userTexts(parents.at(-1)!).find((t) => t.startsWith("<task-notification>"))!;
    assert.match(
      note,
      /^<task-notification>\n<task-id>.*-agent1<\/task-id>\n<tool-use-id>[^<]+<\/tool-use-id>\n<output-file>.*-agent1\.jsonl<\/output-file>\n<status>completed<\/status>\n<summary>Agent "greet" finished<\/summary>\n<result>background hi<\/result>\n<\/task-notification>$/,
    );
  } finally {
    await s.close();
  }
});

Deno.test("#22 item 2: spawn_agent's model, reasoning_effort and fork_context reach the child's requests; collab items name their sender thread", async () => {
  const s = await open({
    steps: [
      {
        tool_calls: [
          codex("spawn_agent", {
            message: "CHILD-FORK: go on",
            model: "gpt-5-mini",
            reasoning_effort: "low",
            fork_context: true,
          }),
          codex("spawn_agent", { message: "CHILD-PLAIN: start fresh" }),
        ],
      },
      { tool_calls: [codex("wait_agent", { targets: ["{output.agent_id}"], timeout_ms: 10000 })] },
      { text: "parent done" },
    ],
    replies: [
      { when_input_contains: "CHILD-FORK", text: "forked child done" },
      { when_input_contains: "CHILD-PLAIN", text: "plain child done" },
    ],
  });
  try {
    assert.equal((await s.run("PARENT-ASKS: split the work")).status, "completed");
    const fork = s.bodies.find((b) => userTexts(b).some((t) => t.startsWith("CHILD-FORK")))!;
    const plain = s.bodies.find((b) => userTexts(b).some((t) => t.startsWith("CHILD-PLAIN")))!;
    assert.equal(fork.model, "gpt-5-mini");
    assert.equal(fork.reasoning?.effort, "low");
    // Forked: the parent's thread so far, less the spawn calls still waiting for their outputs.
    assert.ok(userTexts(fork).some((t) => t.includes("PARENT-ASKS")), JSON.stringify(fork.input));
    assert.ok(!fork.input.some((i: Body) => i.type === "function_call"), "no unanswered call is sent");
    // The neighbour: a plain spawn starts from its task alone, on the session's model and effort.
    assert.equal(plain.model, "gpt-5");
    assert.equal(plain.reasoning, undefined);
    assert.ok(!userTexts(plain).some((t) => t.includes("PARENT-ASKS")));
    // deno-lint-ignore no-explicit-any
    const collab = s.events.filter((e: any) =>
      e.type === "item.completed" && e.item.type === "collab_tool_call"
    )
      // deno-lint-ignore no-explicit-any
      .map((e: any) => e.item);
    assert.ok(collab.length >= 2);
    for (const item of collab) assert.equal(item.sender_thread_id, s.session.threadId);
  } finally {
    await s.close();
  }
});
