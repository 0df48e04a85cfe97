import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { MAX_LIVE_EXEC_SESSIONS } from "../../lib/tools/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// #23 item 2 (tool_set), "Side by side" and "Bad input", through Session and the real fixture model:
// each family's first request against what its own CLI sent (fixtures/peers/, captured 2026-12-02).

type Body = Record<string, any>;
const signal = () => new AbortController().signal;
const peer = (file: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`../../fixtures/peers/${file}`, import.meta.url))) as Body;

/** Claude Code tools Trellis has no feature for yet: subagents (#22), skills tool, workflows, wakeups. */
const CLAUDE_ASIDE = [
  "ListAgents",
  "ReportFindings",
  "ScheduleWakeup",
  "Skill",
  "Workflow",
  "DeferredToolPlaceholder",
];

async function open(script: FixtureScript, wire: "messages" | "responses", overrides: string[] = []) {
  const home = await makeSandboxHome();
  const cwd = `${home.root}/ws`;
  await platform.fs.mkdir(cwd);
  const server = await startFixtureModelServer({ script });
  const env: Record<string, string> = {
    ...home.env,
    PATH: platform.env("PATH") ?? "/usr/bin:/bin",
    SHELL: "/bin/sh",
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: server.url.replace(/\/v1$/, ""),
  };
  const provider = wire === "messages" ? ["model_provider=anthropic", "model=claude-sonnet-4-5"] : [
    "model_provider=fixture",
    `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
    "model=gpt-5",
  ];
  const loaded = await loadConfig(platform.fs, {
    cwd,
    env: (name) => env[name],
    overrides: [...provider, "skills.bundled.enabled=false", "tool_set=auto", ...overrides],
  });
  const events: TrellisEventBody[] = [];
  const session = await Session.open({
    platform: { ...platform, env: (name) => env[name], envAll: () => ({ ...env }) },
    loaded,
    events: (e) => events.push(e),
    approver: noTtyApprover,
  });
  await session.start(signal());
  return {
    cwd,
    session,
    events,
    bodies: server.requests as Body[],
    turn: (prompt: string) => session.runTurn({ prompt, maxSteps: 8, signal: signal() }),
    close: async () => {
      await session.close();
      await server.close();
    },
  };
}

const outputs = (body: Body): string[] =>
  body.messages?.flatMap((m: Body) =>
    Array.isArray(m.content)
      ? m.content.filter((b: Body) => b.type === "tool_result").map((b: Body) => JSON.stringify(b.content))
      : []
  ) ?? body.input.filter((i: Body) => i.type === "function_call_output").map((i: Body) => i.output);

Deno.test("side by side: claude-sonnet-4-5 under tool_set=auto declares Claude Code's tool names and shapes, cache_control and thinking where it puts them, and a Bash tool_use → tool_result round trip (#23 item 2, side by side)", async () => {
  const s = await open(
    {
      steps: [
        {
          reasoning: "Look.",
          tool_calls: [{ name: "Bash", arguments: { command: "echo HERON", description: "Print" } }],
        },
        { reasoning: "Done.", text: "It printed HERON." },
      ],
    },
    "messages",
    ["model_reasoning_effort=high"],
  );
  try {
    assert.equal((await s.turn("Run it")).status, "completed");
    const [first, second] = s.bodies;
    const claude = peer("claude-code-2.1.332-sonnet-4-5.json");
    const expected = claude.tools.map((t: Body) => t.name).filter((n: string) => !CLAUDE_ASIDE.includes(n));
    // Trellis's Agent (subagents, #22) is appended after the built-ins; Claude Code sends it first.
    assert.deepEqual(first.tools.map((t: Body) => t.name).sort(), expected.sort());
    for (const tool of first.tools) {
      if (tool.name === "Agent") continue;
      const theirs = claude.tools.find((t: Body) => t.name === tool.name).input_schema;
      assert.deepEqual(tool.input_schema.required, theirs.required, tool.name);
      for (const key of Object.keys(tool.input_schema.properties)) {
        assert.ok(key in theirs.properties, `${tool.name}.${key} is Claude Code's`);
      }
    }
    assert.ok(first.tools.every((t: Body) => !("cache_control" in t)));
    assert.deepEqual(first.system.at(-1).cache_control, { type: "ephemeral" });
    assert.equal(first.thinking.type, "enabled");
    const last = first.messages.at(-1).content.at(-1);
    assert.deepEqual(last.cache_control, { type: "ephemeral" });
    assert.match(outputs(second).join("\n"), /HERON/);
    assert.deepEqual(second.messages.at(-1).content.at(-1).cache_control, { type: "ephemeral" });
  } finally {
    await s.close();
  }
});

Deno.test("side by side: gpt-5 under tool_set=auto declares Codex's tool names (multi_agent_v1, goals and the hosted web_search aside) and update_plan (#23 item 2)", async () => {
  const s = await open({ steps: [{ text: "hi" }] }, "responses");
  try {
    assert.equal((await s.turn("hello")).status, "completed");
    const codex = peer("codex-0.171-gpt-5.json");
    const aside = ["multi_agent_v1", "get_goal", "create_goal", "update_goal"];
    const theirs = codex.tools.filter((t: Body) => t.type === "function" && !aside.includes(t.name));
    // Trellis's Agent is aside as Codex's multi_agent_v1 is, until agents.tool_style (wt/agentsx).
    const ours = s.bodies[0].tools.filter((t: Body) => t.type === "function" && t.name !== "Agent");
    assert.deepEqual(ours.map((t: Body) => t.name), [...theirs.map((t: Body) => t.name), "update_plan"]);
    for (const tool of theirs) {
      const mine = ours.find((t: Body) => t.name === tool.name);
      assert.deepEqual(
        Object.keys(mine.parameters.properties).sort(),
        Object.keys(tool.parameters.properties).sort(),
      );
      assert.deepEqual(mine.parameters.required, tool.parameters.required, tool.name);
    }
  } finally {
    await s.close();
  }
});

Deno.test("tool_set=trellis pins Trellis's own names for gpt-5: the neighbour of auto (#23 item 2)", async () => {
  const s = await open({ steps: [{ text: "hi" }] }, "responses", ["tool_set=trellis"]);
  try {
    await s.turn("hello");
    const names = s.bodies[0].tools.map((t: Body) => t.name);
    assert.ok(names.includes("shell") && names.includes("read_file"));
    assert.ok(!names.includes("exec_command"));
    assert.equal(s.session.toolSetChoice().reason, 'tool_set = "trellis"');
  } finally {
    await s.close();
  }
});

Deno.test("a Claude model that calls Codex's exec_command gets an error naming the codex tool set, and the turn goes on (#23 bad input)", async () => {
  const s = await open(
    {
      steps: [
        { reasoning: "Try.", tool_calls: [{ name: "exec_command", arguments: { cmd: "ls" } }] },
        { reasoning: "Ok.", text: "Understood." },
      ],
    },
    "messages",
    ["model_reasoning_effort=low"],
  );
  try {
    assert.equal((await s.turn("go")).status, "completed");
    const output = outputs(s.bodies[1]).join("\n");
    assert.match(output, /exec_command.*codex tool set.*claude tool set.*Bash/);
  } finally {
    await s.close();
  }
});

Deno.test("a GPT-5 model that calls Claude Code's Read gets an error naming the claude tool set (the neighbour) (#23 bad input)", async () => {
  const s = await open({
    steps: [{ tool_calls: [{ name: "Read", arguments: { file_path: "x" } }] }, { text: "Understood." }],
  }, "responses");
  try {
    assert.equal((await s.turn("go")).status, "completed");
    assert.match(outputs(s.bodies[1]).join("\n"), /"Read".*claude tool set.*codex tool set.*exec_command/);
  } finally {
    await s.close();
  }
});

Deno.test("ToolSearch select:WebFetch declares the deferred WebFetch from the next request on, not before (#23 item 2)", async () => {
  const s = await open(
    {
      steps: [
        { reasoning: "Load.", tool_calls: [{ name: "ToolSearch", arguments: { query: "select:WebFetch" } }] },
        { reasoning: "Ok.", text: "Loaded." },
      ],
    },
    "messages",
    ["model_reasoning_effort=low"],
  );
  try {
    await s.turn("go");
    const names = s.bodies.map((b) => b.tools.map((t: Body) => t.name));
    assert.ok(!names[0].includes("WebFetch") && !names[0].includes("TodoWrite"));
    assert.ok(names[1].includes("WebFetch"));
    assert.ok(!names[1].includes("TodoWrite"), "only what was selected");
  } finally {
    await s.close();
  }
});

Deno.test("exec_command on a PTY leaves a session running that write_stdin types into, in a later call (#23 item 2)", async () => {
  const s = await open({
    steps: [
      { tool_calls: [{ name: "exec_command", arguments: { cmd: "cat", tty: true, yield_time_ms: 500 } }] },
      {
        tool_calls: [{
          name: "write_stdin",
          arguments: { session_id: 1000, chars: "KESTREL\n", yield_time_ms: 1000 },
        }],
      },
      { tool_calls: [{ name: "exec_command", arguments: { cmd: "test -t 0 && echo TTY || echo PIPE" } }] },
      { text: "done" },
    ],
  }, "responses");
  try {
    assert.equal((await s.turn("go")).status, "completed");
    const out = outputs(s.bodies[3]);
    assert.match(out[0], /Process running with session ID 1000/);
    assert.match(out[1], /KESTREL/);
    assert.match(out[2], /Process exited with code 0[\s\S]*PIPE/, "no tty: plain pipes");
  } finally {
    await s.close();
  }
});

async function running(marker: string): Promise<number> {
  const out = await new Deno.Command("ps", { args: ["-eo", "args"] }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) =>
    l.includes(marker) && !l.includes("ps -eo")
  ).length;
}

Deno.test("background Bash and a PTY session the model never closes are killed when the session ends: no orphan process (#23 item 3)", async () => {
  const s = await open(
    {
      steps: [
        {
          reasoning: "Start.",
          tool_calls: [{ name: "Bash", arguments: { command: "sleep 3117", run_in_background: true } }],
        },
        { reasoning: "Done.", text: "started" },
      ],
    },
    "messages",
    ["model_reasoning_effort=low"],
  );
  let closed = false;
  try {
    assert.equal((await s.turn("go")).status, "completed");
    assert.match(
      outputs(s.bodies[1]).join("\n"),
      /running in background with ID: \d+.*Output is being written to/,
    );
    assert.ok(await running("sleep 3117") >= 1, "it runs after the call returned");
    await s.close();
    closed = true;
    assert.equal(await running("sleep 3117"), 0);
  } finally {
    if (!closed) await s.close();
  }
});

Deno.test(`live sessions are capped at ${MAX_LIVE_EXEC_SESSIONS}: one more is refused with a clear error, the turn goes on (#23 item 3)`, async () => {
  const calls = Array.from({ length: MAX_LIVE_EXEC_SESSIONS + 1 }, () => ({
    name: "exec_command",
    arguments: { cmd: "sleep 3118", yield_time_ms: 250 },
  }));
  const s = await open({ steps: [{ tool_calls: calls }, { text: "ok" }] }, "responses");
  try {
    assert.equal((await s.turn("go")).status, "completed");
    const out = outputs(s.bodies[1]);
    assert.equal(out.filter((o) => /Process running/.test(o)).length, MAX_LIVE_EXEC_SESSIONS);
    assert.match(out.at(-1)!, /still running \(the cap on live sessions\)/);
  } finally {
    await s.close();
  }
  assert.equal(await running("sleep 3118"), 0);
});

Deno.test("trellis debug prompt shows the tool set chosen and why; the default is auto and says so, a pinned trellis does not (#23 item 4)", async () => {
  const home = await makeSandboxHome();
  const cwd = `${home.root}/ws`;
  await platform.fs.mkdir(cwd);
  const env = { ...home.env, ANTHROPIC_API_KEY: "sk-ant-test" };
  const claude = await runCliCaptured(
    [
      "debug",
      "prompt",
      "-c",
      "tool_set=auto",
      "-c",
      "model=claude-sonnet-4-5",
      "-c",
      "model_provider=anthropic",
      "hi",
    ],
    { env, cwd },
  );
  assert.match(claude.stdout, /## tool set: claude \(tool_set = "auto": claude-sonnet-4-5 is a Claude model/);
  assert.match(claude.stdout, /- Bash: /);
  // No layer sets tool_set: auto, and the reason says it is the default.
  const byDefault = await runCliCaptured(["debug", "prompt", "hi"], { env, cwd });
  assert.equal(byDefault.code, 0, byDefault.stderr);
  assert.match(
    byDefault.stdout,
    /## tool set: codex \(tool_set = "auto" \(the default\): gpt-5 is a GPT-5-family model \(Codex's tools\)\)/,
  );
  assert.match(byDefault.stdout, /- exec_command: /);
  assert.doesNotMatch(byDefault.stdout, /- shell: /);
  const json = await runCliCaptured(["debug", "prompt", "--json", "hi"], { env, cwd });
  assert.deepEqual(JSON.parse(json.stdout).toolSet, {
    name: "codex",
    reason: 'tool_set = "auto" (the default): gpt-5 is a GPT-5-family model (Codex\'s tools)',
  });
  const claudeByDefault = await runCliCaptured(
    ["debug", "prompt", "--json", "-c", "model=claude-sonnet-4-5", "-c", "model_provider=anthropic", "hi"],
    { env, cwd },
  );
  assert.deepEqual(JSON.parse(claudeByDefault.stdout).toolSet, {
    name: "claude",
    reason: 'tool_set = "auto" (the default): claude-sonnet-4-5 is a Claude model (Claude Code\'s tools)',
  });
  // Pinned in config.toml, as the README says: Trellis's names, and no "(the default)".
  await platform.fs.writeTextFile(`${home.env.TRELLIS_HOME}/config.toml`, 'tool_set = "trellis"\n');
  const pinned = await runCliCaptured(["debug", "prompt", "--json", "hi"], { env, cwd });
  const pinnedRequest = JSON.parse(pinned.stdout);
  assert.deepEqual(pinnedRequest.toolSet, { name: "trellis", reason: 'tool_set = "trellis"' });
  assert.ok(pinnedRequest.tools.some((t: Body) => t.name === "shell"));
});

Deno.test("/model from gpt-5 to a Claude model switches the tool set from the next request and says so; the same family says nothing (#23 item 4)", async () => {
  const s = await open({ steps: [{ text: "one" }, { text: "two" }, { text: "three" }] }, "responses");
  try {
    await s.turn("first");
    s.session.setModel("gpt-5.5");
    await s.turn("second");
    s.session.setModel("claude-sonnet-4-5");
    await s.turn("third");
    const names = s.bodies.map((b) =>
      b.tools.filter((t: Body) => t.type === "function").map((t: Body) => t.name)
    );
    assert.ok(names[0].includes("exec_command") && names[1].includes("exec_command"));
    assert.ok(names[2].includes("Bash") && !names[2].includes("exec_command"));
    const notices = s.events.flatMap((e) =>
      e.type === "notice" && /tool set/.test(e.message) ? [e.message] : []
    );
    assert.equal(notices.length, 1);
    assert.match(notices[0], /tool set: claude from this request on \(was codex/);
  } finally {
    await s.close();
  }
});
