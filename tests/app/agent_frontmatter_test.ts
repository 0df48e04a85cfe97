import assert from "node:assert/strict";
import { Session, sessionContextLedger } from "../../lib/app/mod.ts";
import { contextLedgerLines } from "../../lib/cli/context_ledger_table.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { openFixtureSession } from "../helpers/fixture_session.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

// #22 item 1 (frontmatter applied) and item 4 (per-agent hooks) through Session, the real fixture
// model server and a real stdio MCP server: what each child's requests hold, and what runs.

const FX = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

async function open(script: FixtureScript, agents: Record<string, string>, overrides: string[] = []) {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  await platform.fs.mkdir(`${env.TRELLIS_HOME}/agents`);
  for (const [name, text] of Object.entries(agents)) {
    await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/agents/${name}.md`, text);
  }
  await platform.fs.mkdir(`${env.HOME}/.agents/skills/house-style`);
  await platform.fs.writeTextFile(
    `${env.HOME}/.agents/skills/house-style/SKILL.md`,
    "---\nname: house-style\ndescription: The house style.\n---\nHOUSE-STYLE-BODY: tabs, never spaces.\n",
  );
  // A skill that runs apart (context: fork), selected only where a test mentions $forked.
  await platform.fs.mkdir(`${env.HOME}/.agents/skills/forked`);
  await platform.fs.writeTextFile(
    `${env.HOME}/.agents/skills/forked/SKILL.md`,
    "---\nname: forked\ndescription: Runs apart.\ncontext: fork\nagent: scout\n---\nFORK-BODY: survey the repo.\n",
  );
  const server = await startFixtureModelServer({ script });
  const { session, events } = await openFixtureSession({
    cwd,
    env,
    url: server.url,
    noRetries: true,
    overrides: [
      "tool_set=trellis",
      'agents.tool_style="claude"', // the Claude face (auto would pick codex for gpt-5)
      ...overrides,
    ],
  });
  return {
    root,
    env,
    session,
    events,
    // deno-lint-ignore no-explicit-any
    bodies: server.requests as Record<string, any>[],
    close: async () => {
      await session.close();
      await server.close();
    },
  };
}

const agentCall = (type: string, prompt: string) => ({
  name: "Agent",
  arguments: { subagent_type: type, description: `run ${type}`, prompt },
});
// deno-lint-ignore no-explicit-any
const names = (body: Record<string, any>) => body.tools.map((t: { name: string }) => t.name).sort();
// deno-lint-ignore no-explicit-any
const has = (body: Record<string, any>, text: string) => JSON.stringify(body.input).includes(text);

// Names the child's server process, so the test can see whether it still runs.
const TOKEN = `agent-only-${crypto.randomUUID()}`;
const PLANNER = `---
name: planner
description: Plans without writing.
model: sonnet
permissionMode: plan
skills: house-style
mcpServers:
  - local:
      command: node
      args: [${JSON.stringify(FX)}, "echo", "${TOKEN}"]
---
You plan.
`;

Deno.test("#22 item 1: model alias, permissionMode plan, preloaded skills and an inline MCP server reach only that child", async () => {
  const s = await open(
    {
      steps: [
        { tool_calls: [agentCall("planner", "PLAN-IT"), agentCall("general-purpose", "PLAIN-CHILD")] },
        { text: "parent done" },
      ],
      replies: [
        { when_input_contains: "PLAN-IT", tool_calls: [{ name: "mcp__local__pid", arguments: {} }] },
        { when_input_contains: "function_call_output", text: "planned" },
        { when_input_contains: "PLAIN-CHILD", text: "plain" },
      ],
    },
    { planner: PLANNER },
    ['agents.model_aliases.sonnet="fixture-sonnet-id"'],
  );
  try {
    const result = await s.session.runTurn({
      prompt: "go",
      maxSteps: 4,
      signal: new AbortController().signal,
    });
    assert.equal(result.status, "completed");
    const planner = s.bodies.filter((b) => has(b, "PLAN-IT"));
    const plain = s.bodies.find((b) => has(b, "PLAIN-CHILD"))!;
    assert.ok(planner.length >= 2, "the planner made its MCP call and answered");
    // model: sonnet through [agents.model_aliases]; the sibling and parent stay on the session's model.
    assert.equal(planner[0].model, "fixture-sonnet-id");
    assert.notEqual(plain.model, "fixture-sonnet-id");
    assert.notEqual(s.bodies[0].model, "fixture-sonnet-id");
    // permissionMode: plan offers no file-writing tool; the sibling still has them.
    assert.ok(!names(planner[0]).includes("write_file") && !names(planner[0]).includes("edit_file"));
    assert.ok(names(plain).includes("write_file"), names(plain).join(","));
    // The inline server is this child's alone: its tools are in the planner's requests only.
    assert.ok(names(planner[0]).includes("mcp__local__pid"), names(planner[0]).join(","));
    assert.ok(!names(plain).some((n: string) => n.startsWith("mcp__local")));
    assert.ok(!names(s.bodies[0]).some((n: string) => n.startsWith("mcp__local")));
    // skills: house-style is preloaded whole into the planner's first request, not the sibling's.
    assert.ok(has(planner[0], "HOUSE-STYLE-BODY"));
    assert.ok(!has(plain, "HOUSE-STYLE-BODY"));
    // The server was started for the child (its pid tool answered) and stopped with it.
    const output = planner[1].input.find((i: { type: string }) => i.type === "function_call_output").output;
    assert.match(String(output), /\d+/);
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      alive = (await new Deno.Command("pgrep", { args: ["-f", TOKEN], stdout: "null" }).output()).success;
      if (alive) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(alive, false, "the child's MCP server still runs after the child ended");
  } finally {
    await s.close();
  }
});

Deno.test("#22 item 1: an unmapped model alias is one warning naming the agent; the child runs on the session's model", async () => {
  const s = await open(
    {
      steps: [{ tool_calls: [agentCall("fast", "FAST-CHILD")] }, { text: "done" }],
      replies: [{ when_input_contains: "FAST-CHILD", text: "ok" }],
    },
    { fast: "---\nname: fast\ndescription: Fast.\nmodel: haiku\n---\nBe quick.\n" },
  );
  try {
    await s.session.runTurn({ prompt: "go", maxSteps: 3, signal: new AbortController().signal });
    const warnings = s.events.filter((e) => e.type === "warning" && e.message.includes("haiku"));
    assert.equal(warnings.length, 1);
    assert.match(
      (warnings[0] as { message: string }).message,
      /Agent "fast" \(.*fast\.md\): model alias "haiku" has no entry in \[agents.model_aliases\]/,
    );
    const child = s.bodies.find((b) => has(b, "FAST-CHILD"))!;
    assert.equal(child.model, s.bodies[0].model);
  } finally {
    await s.close();
  }
});

Deno.test("#22 item 4: an agent's frontmatter hooks run for that child's events only, once trusted; a Stop there is SubagentStop", async () => {
  const marks = (root: string) => `${root}/marks.log`;
  const hooked = (root: string) =>
    `---
name: hooked
description: Has hooks.
hooks:
  PreToolUse:
    - matcher: read_file|Read
      hooks:
        - type: command
          command: "jq -r '.agent_type + \\" pre \\" + .tool_name' >> ${marks(root)}"
  Stop:
    - hooks:
        - type: command
          command: "jq -r '.hook_event_name + \\" \\" + .agent_type' >> ${marks(root)}"
---
You read.
`;
  const { root, env } = await makeSandboxHome();
  const script: FixtureScript = {
    steps: [{ tool_calls: [agentCall("hooked", "HOOKED-CHILD"), agentCall("general-purpose", "SIBLING")] }, {
      text: "done",
    }],
    replies: [
      { when_input_contains: "function_call_output", text: "read it" },
      {
        when_input_contains: "HOOKED-CHILD",
        tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }],
      },
      { when_input_contains: "SIBLING", tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }] },
    ],
  };
  // Trust by key, as `trellis hooks trust KEY` records it: untrusted agent hooks do not run.
  const run = async () => {
    await platform.fs.remove(marks(root)).catch(() => {});
    const server = await startFixtureModelServer({ script });
    const cwd = `${root}/ws`;
    await platform.fs.mkdir(cwd);
    await platform.fs.writeTextFile(`${cwd}/a.md`, "A\n");
    await platform.fs.mkdir(`${env.TRELLIS_HOME}/agents`);
    await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/agents/hooked.md`, hooked(root));
    const { session, events } = await openFixtureSession({
      cwd,
      env,
      url: server.url,
      noRetries: true,
      overrides: ["tool_set=trellis", 'agents.tool_style="claude"'],
    });
    try {
      await session.runTurn({ prompt: "go", maxSteps: 3, signal: new AbortController().signal });
    } finally {
      await session.close();
      await server.close();
    }
    const text = await platform.fs.readTextFile(marks(root)).catch(() => "");
    return { lines: text.trim().split("\n").filter((l) => l !== "").sort(), events };
  };
  const untrusted = await run();
  assert.deepEqual(untrusted.lines, []);
  const review = untrusted.events.find((e) =>
    e.type === "warning" && e.message.includes("not run until trusted")
  );
  assert.ok(review, "the untrusted agent hooks are named");
  const keys = [...(review as { message: string }).message.matchAll(/trellis hooks trust (\S+?)(,|$)/g)].map((
    m,
  ) => m[1]);
  assert.equal(keys.length, 2);
  for (const key of keys) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname, "hooks", "trust", key],
      env: { ...env },
      cwd: `${root}/ws`,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
  }
  const trusted = await run();
  // The hooked child's read fires its PreToolUse; the sibling's identical read does not.
  assert.deepEqual(trusted.lines, ["SubagentStop hooked", "hooked pre Read"]);
});

Deno.test("#22 figure: definitions are read at the first step offering Agent, not at session open; a broken one is named then, once", async () => {
  const s = await open({ steps: [{ text: "one" }, { text: "two" }] }, {
    broken: "---\nname: [unclosed\n---\nx\n",
  });
  try {
    const named = () =>
      s.events.filter((e) => e.type === "warning" && e.message.includes("broken.md")).length;
    assert.equal(named(), 0, "nothing read at open");
    await s.session.runTurn({ prompt: "a", maxSteps: 2, signal: new AbortController().signal });
    assert.equal(named(), 1);
    assert.ok(names(s.bodies[0]).includes("Agent"));
    await s.session.runTurn({ prompt: "b", maxSteps: 2, signal: new AbortController().signal });
    assert.equal(named(), 1, "named once, not at every step");
  } finally {
    await s.close();
  }
});

Deno.test("#22 bad input: tools no tool answers to are named once per session with the file; the known ones still apply", async () => {
  const s = await open({
    steps: [{ tool_calls: [agentCall("odd", "ODD-1"), agentCall("odd", "ODD-2")] }, { text: "done" }],
    replies: [{ when_input_contains: "ODD-", text: "ok" }],
  }, { odd: "---\nname: odd\ndescription: Odd tools.\ntools: Read, Teleport, mcp__nowhere\n---\nx\n" });
  try {
    await s.session.runTurn({ prompt: "go", maxSteps: 3, signal: new AbortController().signal });
    const named = s.events.filter((e) => e.type === "warning" && e.message.includes("Teleport"));
    assert.equal(named.length, 1, "once, though the agent ran twice");
    assert.match(
      (named[0] as { message: string }).message,
      /Agent "odd" \(.*odd\.md\): `Teleport`, `mcp__nowhere` in tools\/disallowedTools name no tool this session has; ignored/,
    );
    const child = s.bodies.find((b) => has(b, "ODD-1"))!;
    assert.deepEqual(names(child), ["read_file", "view_image"]);
  } finally {
    await s.close();
  }
});

Deno.test("#22 item 6: /context's ledger lists each subagent's own context, counted from its transcript, outside the total", async () => {
  const s = await open({
    steps: [{ tool_calls: [agentCall("counted", "COUNT-ME")] }, { text: "done" }],
    replies: [{ when_input_contains: "COUNT-ME", text: "A child answer of some length." }],
  }, { counted: `---\nname: counted\ndescription: Counted.\n---\n${"Instruction words. ".repeat(200)}\n` });
  try {
    await s.session.runTurn({ prompt: "go", maxSteps: 3, signal: new AbortController().signal });
    const ledger = await sessionContextLedger(s.session, { preview: false });
    assert.equal(ledger.agents.length, 1);
    const [child] = ledger.agents;
    assert.equal(child.agentType, "counted");
    assert.match(child.agentId, new RegExp(`^${s.session.threadId}-agent1$`));
    // Its instructions (~600 tokens) and history are counted; the parent's total does not hold them.
    assert.ok(child.tokens > 400, String(child.tokens));
    assert.ok(ledger.rows.every((r) => !r.name.includes("counted")));
    const lines = contextLedgerLines(ledger).join("\n");
    assert.match(lines, /subagents \(each its own context window.*\n\s+\d[\d,]*\s+\S+\s+counted .*-agent1/);
  } finally {
    await s.close();
  }
});

Deno.test("#22 item 4: with the session's own hooks, an agent's hooks join for its events only; Stop fires for the parent, never a child", async () => {
  const { root, env } = await makeSandboxHome();
  const log = `${root}/log.txt`;
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  await platform.fs.writeTextFile(`${cwd}/a.md`, "A\n");
  await platform.fs.mkdir(`${env.TRELLIS_HOME}/agents`);
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/agents/hooked.md`,
    `---\nname: hooked\ndescription: Hooked.\nhooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n` +
      `          command: "jq -r '\\"agent-hook \\" + .agent_type' >> ${log}"\n---\nRead.\n`,
  );
  const user = (event: string) => [{
    hooks: [{ type: "command", command: `jq -r '"${event} " + (.agent_type // "parent")' >> ${log}` }],
  }];
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/hooks.json`,
    JSON.stringify({ hooks: { PreToolUse: user("PreToolUse"), Stop: user("Stop") } }),
  );
  const trust = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname, "hooks", "trust", "--all"],
    env,
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(trust.success, new TextDecoder().decode(trust.stderr));
  const server = await startFixtureModelServer({
    script: {
      steps: [
        { tool_calls: [agentCall("hooked", "HOOKED-CHILD"), agentCall("general-purpose", "SIBLING")] },
        {
          text: "done",
        },
      ],
      replies: [
        { when_input_contains: "function_call_output", text: "read it" },
        {
          when_input_contains: "HOOKED-CHILD",
          tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }],
        },
        { when_input_contains: "SIBLING", tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }] },
      ],
    },
  });
  const loaded = await loadConfig(platform.fs, {
    cwd,
    env: (name) => env[name],
    overrides: [
      "model_provider=fixture",
      "tool_set=trellis",
      `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
      "model_providers.fixture.request_max_retries=0",
      "skills.bundled.enabled=false",
      'agents.tool_style="claude"', // the script calls Agent (auto would pick codex for gpt-5)
    ],
  });
  const session = await Session.open({ platform, loaded, events: () => {}, approver: noTtyApprover });
  try {
    await session.runTurn({ prompt: "go", maxSteps: 3, signal: new AbortController().signal });
  } finally {
    await session.close();
    await server.close();
  }
  const lines = (await platform.fs.readTextFile(log)).trim().split("\n").sort();
  // The parent's two Agent calls fire its PreToolUse; each child's read fires it with its type.
  assert.deepEqual(lines, [
    "PreToolUse general-purpose",
    "PreToolUse hooked",
    "PreToolUse parent",
    "PreToolUse parent",
    "Stop parent",
    "agent-hook hooked",
  ]);
});

Deno.test("#22 item 5: a skill with context: fork runs in a subagent of its agent: type; the parent gets the answer, not the body", async () => {
  const s = await open({
    steps: [{ text: "parent saw it" }],
    replies: [{ when_input_contains: "FORK-BODY", text: "FORKED-ANSWER from the child" }],
  }, { scout: "---\nname: scout\ndescription: Scouts.\ntools: Read\n---\nSCOUT-PROMPT\n" });
  try {
    const result = await s.session.runTurn({
      prompt: "use $forked and $house-style",
      maxSteps: 2,
      signal: new AbortController().signal,
    });
    assert.equal(result.status, "completed");
    const child = s.bodies.find((b) => has(b, "FORK-BODY"))!;
    assert.equal(child.instructions, "SCOUT-PROMPT");
    assert.deepEqual(names(child), ["read_file", "view_image"]);
    const parent = s.bodies.find((b) => has(b, "use $forked"))!;
    assert.ok(has(parent, "FORKED-ANSWER from the child"));
    assert.ok(!has(parent, "FORK-BODY"), "the forked skill's body stays out of the parent's context");
    // The neighbour: a skill without context: fork is injected whole, as before.
    assert.ok(has(parent, "HOUSE-STYLE-BODY"));
    assert.ok(s.events.some((e) => e.type === "agent.started" && e.agent_type === "scout"));
  } finally {
    await s.close();
  }
});
