import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { openFixtureSession } from "../helpers/fixture_session.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// #22 items 1–3 through Session and the real fixture model server: the children's requests are
// answered by `replies` matched on their own prompts, whatever order they arrive in.

const READER = "---\nname: reader\ndescription: Reads files.\ntools: Read\n---\nYou read files and report.\n";

type Home = { root: string; env: Record<string, string>; cwd: string };

async function open(script: FixtureScript, overrides: string[] = [], setup?: (h: Home) => Promise<void>) {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  await platform.fs.writeTextFile(`${cwd}/a.md`, "ALPHA-CONTENT\n");
  await platform.fs.mkdir(`${env.TRELLIS_HOME}/agents`);
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/agents/reader.md`, READER);
  await setup?.({ root, env, cwd });
  const server = await startFixtureModelServer({ script });
  const { session, events } = await openFixtureSession({
    cwd,
    env,
    url: server.url,
    noRetries: true,
    overrides: [
      "tool_set=trellis",
      // These cases are about the Claude face (the fixture model is named gpt-5, so auto is codex).
      'agents.tool_style="claude"',
      ...overrides,
    ],
  });
  const close = async () => {
    await session.close();
    await server.close();
  };
  // deno-lint-ignore no-explicit-any
  return { session, events, close, bodies: server.requests as Record<string, any>[] };
}

const agentCall = (type: string, prompt: string) => ({
  name: "Agent",
  arguments: { subagent_type: type, description: `run ${type}`, prompt },
});
// deno-lint-ignore no-explicit-any
const lastInput = (body: Record<string, any>) => JSON.stringify(body.input.at(-1));
// deno-lint-ignore no-explicit-any
const toolNames = (body: Record<string, any>) => body.tools.map((t: { name: string }) => t.name).sort();

Deno.test("two Agent calls of one step run as concurrent child threads; their answers are the tool results", async () => {
  const s = await open({
    steps: [
      {
        tool_calls: [
          agentCall("reader", "CHILD-A: read a.md"),
          agentCall("general-purpose", "CHILD-B: say hi"),
        ],
      },
      { text: "parent done" },
    ],
    replies: [
      { when_input_contains: "CHILD-A", tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }] },
      { when_input_contains: "ALPHA-CONTENT", text: "A found alpha" },
      { when_input_contains: "CHILD-B", text: "B says hi" },
    ],
  });
  try {
    const result = await s.session.runTurn({
      prompt: "explore",
      maxSteps: 4,
      signal: new AbortController().signal,
    });
    assert.equal(result.status, "completed");
    assert.equal(result.lastMessage, "parent done");
    // Both children started before either finished: they ran at the same time, not one after the other.
    const lifecycle = s.events.filter((e) => e.type === "agent.started" || e.type === "agent.completed")
      .map((e) => `${e.type}:${e.agent_type}`);
    assert.deepEqual(lifecycle.slice(0, 2).sort(), ["agent.started:general-purpose", "agent.started:reader"]);
    assert.deepEqual(lifecycle.slice(2).sort(), [
      "agent.completed:general-purpose",
      "agent.completed:reader",
    ]);
    // The parent's second request carries each child's final message as its call's output.
    const parentFinal = s.bodies.find((b) =>
      b.input.some((i: { type: string }) => i.type === "function_call_output") &&
      b.instructions !== "You read files and report."
    )!;
    const outputs = parentFinal.input.filter((i: { type: string }) => i.type === "function_call_output")
      .map((i: { output: string }) => i.output);
    assert.match(outputs[0], /^A found alpha\n\n\(agent transcript: .*\/sessions\/.*-agent\d\.jsonl\)$/);
    assert.match(outputs[1], /^B says hi\n/);
    // Each child has its own transcript, linked to the parent in its header.
    const started = s.events.filter((e) => e.type === "agent.started");
    for (const e of started) {
      const header = JSON.parse((await platform.fs.readTextFile(e.transcript!)).split("\n")[0]);
      assert.equal(header.meta.parent.threadId, s.session.threadId);
    }
  } finally {
    await s.close();
  }
});

Deno.test("an agent whose definition says `tools: Read` is offered Read's tools only (read_file, view_image); general-purpose gets the parent's tools", async () => {
  const s = await open({
    steps: [
      {
        tool_calls: [
          agentCall("reader", "CHILD-A: read a.md"),
          agentCall("general-purpose", "CHILD-B: say hi"),
        ],
      },
      { text: "parent done" },
    ],
    replies: [
      { when_input_contains: "CHILD-A", text: "A done" },
      { when_input_contains: "CHILD-B", text: "B done" },
    ],
  });
  try {
    await s.session.runTurn({ prompt: "explore", maxSteps: 4, signal: new AbortController().signal });
    const reader = s.bodies.find((b) => lastInput(b).includes("CHILD-A"))!;
    const general = s.bodies.find((b) => lastInput(b).includes("CHILD-B"))!;
    // Claude Code's Read also reads images: view_image is Read to hooks and agents (#23 item 3).
    assert.deepEqual(toolNames(reader), ["read_file", "view_image"]);
    assert.equal(reader.instructions, "You read files and report.");
    assert.ok(toolNames(general).includes("shell"), toolNames(general).join(","));
    assert.deepEqual(toolNames(general), toolNames(s.bodies[0]));
  } finally {
    await s.close();
  }
});

Deno.test("a child at agents.max_depth is refused an Agent call, with a message its model sees", async () => {
  const s = await open({
    steps: [{ tool_calls: [agentCall("general-purpose", "CHILD-C: delegate")] }, { text: "parent done" }],
    replies: [
      { when_input_contains: "CHILD-C", tool_calls: [agentCall("general-purpose", "GRANDCHILD: hi")] },
      { when_input_contains: "depth limit", text: "C did it alone" },
    ],
  });
  try {
    const result = await s.session.runTurn({
      prompt: "go",
      maxSteps: 4,
      signal: new AbortController().signal,
    });
    assert.equal(result.status, "completed");
    const refused = s.bodies.find((b) => lastInput(b).includes("depth limit"))!;
    assert.match(lastInput(refused), /Agent depth limit reached \(agents.max_depth = 1\)/);
    assert.equal(s.bodies.filter((b) => lastInput(b).includes("GRANDCHILD")).length, 0);
    assert.equal(s.events.filter((e) => e.type === "agent.started").length, 1);
  } finally {
    await s.close();
  }
});

Deno.test("agents.max_depth = 2 lets the child spawn (the neighbour of the depth refusal)", async () => {
  const s = await open({
    steps: [{ tool_calls: [agentCall("general-purpose", "CHILD-C: delegate")] }, { text: "parent done" }],
    replies: [
      { when_input_contains: "CHILD-C", tool_calls: [agentCall("general-purpose", "GRANDCHILD: hi")] },
      { when_input_contains: "GRANDCHILD", text: "grandchild answer" },
      { when_input_contains: "grandchild answer", text: "C relayed" },
    ],
  }, ["agents.max_depth=2"]);
  try {
    await s.session.runTurn({ prompt: "go", maxSteps: 4, signal: new AbortController().signal });
    assert.equal(s.events.filter((e) => e.type === "agent.started").length, 2);
  } finally {
    await s.close();
  }
});

Deno.test("a child running past agents.job_max_runtime_sec is stopped with a clear result; the parent goes on", async () => {
  const s = await open({
    steps: [{ tool_calls: [agentCall("general-purpose", "CHILD-SLOW: wait")] }, { text: "parent done" }],
    replies: [{ when_input_contains: "CHILD-SLOW", text: "too late", delay_ms: 5_000 }],
  }, ["agents.job_max_runtime_sec=0.2"]);
  try {
    const result = await s.session.runTurn({
      prompt: "go",
      maxSteps: 4,
      signal: new AbortController().signal,
    });
    assert.equal(result.status, "completed");
    const final = s.bodies.at(-1)!;
    assert.match(lastInput(final), /ran longer than agents.job_max_runtime_sec \(0.2 s\)/);
    assert.deepEqual(
      s.events.filter((e) => e.type === "agent.completed").map((e) =>
        e.type === "agent.completed" && e.status
      ),
      ["timed_out"],
    );
  } finally {
    await s.close();
  }
});

Deno.test("SubagentStart (matched on the agent type) adds context to that child; SubagentStop gets Claude Code's fields", async () => {
  let root = "";
  const s = await open(
    {
      steps: [
        { tool_calls: [agentCall("reader", "CHILD-A: read"), agentCall("general-purpose", "CHILD-B: hi")] },
        { text: "parent done" },
      ],
      replies: [
        // The hook's context comes after the prompt: the reader's first request ends with it.
        { when_input_contains: "KESTREL", tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }] },
        { when_input_contains: "ALPHA-CONTENT", text: "A answer" },
        { when_input_contains: "CHILD-B", text: "B answer" },
      ],
    },
    [],
    async (h) => {
      root = h.root;
      const script = async (name: string, body: string) => {
        const file = `${h.root}/${name}.sh`;
        await platform.fs.writeTextFile(file, `#!/bin/sh\n${body}\n`);
        await platform.fs.chmod(file, 0o755);
        return file;
      };
      const hook = (matcher: string, command: string) => ({ matcher, hooks: [{ type: "command", command }] });
      const hooks = {
        SubagentStart: [hook(
          "reader",
          await script(
            "start",
            `cat > "${h.root}/start.json"; echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"remember KESTREL"}}'`,
          ),
        )],
        SubagentStop: [hook("general-purpose", await script("stop", `cat > "${h.root}/stop.json"`))],
        PreToolUse: [hook("Read", await script("pre", `cat > "${h.root}/pre.json"`))],
      };
      await platform.fs.writeTextFile(`${h.env.TRELLIS_HOME}/hooks.json`, JSON.stringify({ hooks }));
      const trust = await runCliCaptured(["hooks", "trust", "--all"], { env: h.env, cwd: h.cwd });
      assert.equal(trust.code, 0, trust.stderr);
    },
  );
  try {
    const result = await s.session.runTurn({
      prompt: "go",
      maxSteps: 4,
      signal: new AbortController().signal,
    });
    assert.equal(result.lastMessage, "parent done");
    const reader = s.bodies.find((b) => JSON.stringify(b.input).includes("CHILD-A"))!;
    const general = s.bodies.find((b) => JSON.stringify(b.input).includes("CHILD-B"))!;
    assert.match(JSON.stringify(reader.input), /remember KESTREL/);
    assert.doesNotMatch(JSON.stringify(general.input), /KESTREL/);
    const start = JSON.parse(await platform.fs.readTextFile(`${root}/start.json`));
    assert.equal(start.hook_event_name, "SubagentStart");
    assert.equal(start.agent_type, "reader");
    assert.match(start.agent_id, /-agent\d$/);
    // A tool hook inside the child says which agent it runs in (Claude Code's fields).
    const pre = JSON.parse(await platform.fs.readTextFile(`${root}/pre.json`));
    assert.deepEqual([pre.hook_event_name, pre.agent_id, pre.agent_type], [
      "PreToolUse",
      start.agent_id,
      "reader",
    ]);
    const stop = JSON.parse(await platform.fs.readTextFile(`${root}/stop.json`));
    assert.equal(stop.hook_event_name, "SubagentStop");
    assert.equal(stop.agent_type, "general-purpose");
    assert.equal(stop.last_assistant_message, "B answer");
    assert.equal(stop.stop_hook_active, false);
    assert.match(stop.agent_transcript_path, /\/sessions\/.*-agent\d\.jsonl$/);
    const started = s.events.find((e) => e.type === "agent.started" && e.agent_type === "general-purpose");
    assert.equal(stop.agent_transcript_path, (started as { transcript: string }).transcript);
  } finally {
    await s.close();
  }
});

Deno.test("aborting the parent's turn stops a running child: the call's result says it was interrupted", async () => {
  const controller = new AbortController();
  const s = await open({
    steps: [{ tool_calls: [agentCall("general-purpose", "CHILD-HANG: wait")] }, { text: "unused" }],
    replies: [{ when_input_contains: "CHILD-HANG", text: "never", delay_ms: 30_000 }],
  });
  try {
    const turn = s.session.runTurn({ prompt: "go", maxSteps: 4, signal: controller.signal });
    while (!s.events.some((e) => e.type === "agent.started")) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const result = await turn;
    assert.equal(result.status, "aborted");
    assert.deepEqual(
      s.events.filter((e) => e.type === "agent.completed").map((e) =>
        e.type === "agent.completed" && e.status
      ),
      ["aborted"],
    );
  } finally {
    await s.close();
  }
});

Deno.test("a spawn beyond agents.max_threads is refused with a message the model sees; the other runs", async () => {
  const s = await open({
    steps: [
      {
        tool_calls: [
          agentCall("general-purpose", "CHILD-X: one"),
          agentCall("general-purpose", "CHILD-Y: two"),
        ],
      },
      { text: "parent done" },
    ],
    replies: [
      { when_input_contains: "CHILD-X", text: "X answer" },
      { when_input_contains: "CHILD-Y", text: "Y answer" },
    ],
  }, ["agents.max_threads=1"]);
  try {
    const result = await s.session.runTurn({
      prompt: "go",
      maxSteps: 4,
      signal: new AbortController().signal,
    });
    assert.equal(result.lastMessage, "parent done");
    const outputs = s.bodies.at(-1)!.input.filter((i: { type: string }) => i.type === "function_call_output")
      .map((i: { output: string }) => i.output);
    assert.equal(outputs.length, 2);
    assert.equal(
      outputs.filter((o: string) => o.startsWith("Agent thread limit reached (agents.max_threads = 1"))
        .length,
      1,
    );
    assert.equal(outputs.filter((o: string) => /^[XY] answer\n/.test(o)).length, 1);
    assert.equal(s.events.filter((e) => e.type === "agent.started").length, 1);
  } finally {
    await s.close();
  }
});
