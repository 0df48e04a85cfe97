import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { callItems, events, runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";
import alwaysOn from "../../fixtures/mcp/everything_always_on.json" with { type: "json" };

const FX = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;
const EVERYTHING =
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)
    .pathname;

const toolCalls = callItems;

Deno.test("MCP-13 exec calls MCP tools (fixture and server-everything) through PreToolUse and PostToolUse", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n\n` +
      `[mcp_servers.everything]\ncommand = "node"\nargs = [${
        JSON.stringify(EVERYTHING)
      }, "stdio"]\nrequired = true\n`,
  );
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/hooks.json`,
    JSON.stringify({
      hooks: {
        PreToolUse: [{
          matcher: "mcp__fx__.*",
          hooks: [{
            type: "command",
            command: "grep -q forbidden && { echo 'no forbidden words' >&2; exit 2; }; exit 0",
          }],
        }],
        PostToolUse: [{
          matcher: "mcp__everything__echo",
          hooks: [{
            type: "command",
            command:
              `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"echo was observed"}}'`,
          }],
        }],
      },
    }),
  );
  assert.equal((await runTrellis(["hooks", "trust", "--all"], { env: s.env, cwd: s.workspace })).code, 0);
  const server = await startFixtureModelServer({
    script: [{
      tool_calls: [
        { name: "mcp__fx__echo", arguments: { text: "hello" } },
        { name: "mcp__fx__echo", arguments: { text: "forbidden" } },
        { name: "mcp__everything__echo", arguments: { message: "from everything" } },
      ],
    }, { text: "done" }],
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "use mcp"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const calls = toolCalls(run.stdout);
    assert.deepEqual(calls.map((c) => [c.name, c.call_status, c.source]), [
      ["mcp__fx__echo", "completed", "mcp:fx"],
      ["mcp__fx__echo", "denied", "mcp:fx"],
      ["mcp__everything__echo", "completed", "mcp:everything"],
    ]);
    assert.equal(calls[0].output, "hello");
    assert.match(calls[1].output, /no forbidden words/);
    assert.match(calls[2].output, /from everything/);
    const second = JSON.stringify(server.requests[1]);
    assert.match(second, /echo was observed/);
    const declared = (server.requests[0] as { tools: { name: string }[] }).tools.map((t) => t.name);
    assert.ok(declared.includes("list_mcp_resources") && declared.includes("read_mcp_resource"));
    const ready = events(run.stdout).filter((e) => e.type === "mcp.server_status" && e.status === "ready");
    assert.deepEqual(ready.map((e) => e.server).sort(), ["everything", "fx"]);
  } finally {
    await server.close();
  }
});

Deno.test("MCP-7 a required MCP server that cannot start makes exec exit 2 naming it", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.broken]\ncommand = "/nonexistent/server"\nrequired = true\n`,
  );
  const run = await runTrellis(["exec", "-c", "model_provider=ollama", "hi"], {
    env: s.env,
    cwd: s.workspace,
  });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /broken/);
});

Deno.test("SK-11 a $mention injects the skill body once; the catalog lists it (exec)", async () => {
  const s = await e2eSetup();
  const dir = `${s.env.HOME}/.agents/skills/greeter`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/SKILL.md`,
    "---\nname: greeter\ndescription: Greets warmly\n---\nSay hello in French.\n",
  );
  const server = await startFixtureModelServer({ script: [{ text: "bonjour" }] });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "please use $greeter"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const request = JSON.stringify(server.requests[0]);
    assert.match(request, /<skills_instructions>/);
    assert.match(request, /- greeter: Greets warmly \(file: /);
    assert.equal(request.split("Say hello in French.").length - 1, 1);
    assert.ok(
      events(run.stdout).some((e) => e.type === "skill.used" && e.name === "greeter" && e.how === "explicit"),
    );
  } finally {
    await server.close();
  }
});

Deno.test("PL-6…PL-10 a marketplace plugin installs, contributes its skill and summary, and its hook starts untrusted", async () => {
  const s = await e2eSetup();
  const market = new URL("../../fixtures/plugins/market", import.meta.url).pathname;
  const add = await runTrellis(["plugin", "marketplace", "add", market], { env: s.env, cwd: s.workspace });
  assert.equal(add.code, 0, add.stderr);
  const install = await runTrellis(["plugin", "install", "demo@test"], { env: s.env, cwd: s.workspace });
  assert.equal(install.code, 0, install.stderr);
  const hooks = await runTrellis(["hooks", "list", "--json"], { env: s.env, cwd: s.workspace });
  assert.equal(hooks.code, 0, hooks.stderr);
  const listed = JSON.parse(hooks.stdout).hooks as { key: string; trust: string; plugin?: string }[];
  assert.deepEqual(listed.map((h) => [h.key, h.trust]), [[
    "demo@test:hooks/hooks.json:pre_tool_use:0:0",
    "untrusted",
  ]]);
  const servers = await runTrellis(["mcp", "list", "--json"], { env: s.env, cwd: s.workspace });
  assert.equal(servers.code, 0, servers.stderr);
  const echo = JSON.parse(servers.stdout).find((e: { name: string }) => e.name === "echo");
  assert.deepEqual([echo?.tier, echo?.plugin, echo?.transport.args.at(-1)], [
    "plugin",
    "demo@test",
    `${s.env.TRELLIS_HOME}/plugins/data/demo-test`,
  ]);
  const server = await startFixtureModelServer({ script: [{ text: "ok" }] });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const request = JSON.stringify(server.requests[0]);
    assert.match(request, /- demo:hello: /);
    assert.match(request, /<plugins_instructions>/);
  } finally {
    await server.close();
  }
});

// Always-on tools of server-everything with arguments that make each succeed offline.
const EVERYTHING_TOOLS: Record<string, Record<string, unknown>> = alwaysOn;

Deno.test("MCP-9 every always-on server-everything tool works through an exec turn and `trellis mcp call`", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.ev]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\nrequired = true\n`,
  );
  const calls = Object.entries(EVERYTHING_TOOLS).map(([tool, args]) => ({
    name: `mcp__ev__${tool.replaceAll("-", "_")}`,
    arguments: args,
  }));
  const server = await startFixtureModelServer({ script: [{ tool_calls: calls }, { text: "done" }] });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "all tools"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const done = toolCalls(run.stdout);
    assert.deepEqual(done.map((c) => [c.name, c.call_status]), calls.map((c) => [c.name, "completed"]));
    assert.match(done.find((c) => c.name === "mcp__ev__get_sum")!.output, /5/);
  } finally {
    await server.close();
  }
  const cli = await runTrellis(["mcp", "call", "ev", "get-sum", "--args", '{"a":20,"b":22}'], {
    env: s.env,
    cwd: s.workspace,
  });
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /42/);
});

Deno.test("issue 7: server-everything's roots, sampling, elicitation and progress tools through an exec turn", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.ev]\ncommand = "node"\nargs = [${
      JSON.stringify(EVERYTHING)
    }, "stdio"]\nsampling = "allow"\nrequired = true\n`,
  );
  const server = await startFixtureModelServer({
    script: [
      {
        tool_calls: [
          { name: "mcp__ev__get_roots_list", arguments: {} },
          {
            name: "mcp__ev__trigger_sampling_request",
            arguments: { prompt: "say something", maxTokens: 50 },
          },
          { name: "mcp__ev__trigger_elicitation_request", arguments: {} },
          { name: "mcp__ev__trigger_url_elicitation", arguments: { url: "https://example.com/x" } },
          { name: "mcp__ev__trigger_long_running_operation", arguments: { duration: 0.4, steps: 4 } },
        ],
      },
      { text: "the sampled reply" },
      { text: "done" },
    ],
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "exercise"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const stream = events(run.stdout);
    const outputs = Object.fromEntries(toolCalls(run.stdout).map((c) => [c.name, c.output]));
    assert.match(outputs.mcp__ev__get_roots_list, new RegExp(`file://${s.workspace}`));
    assert.match(outputs.mcp__ev__trigger_sampling_request, /the sampled reply/);
    assert.ok(stream.some((e) => e.type === "mcp.sampling" && e.server === "ev" && e.decision === "allowed"));
    const elicitations = stream.filter((e) => e.type === "mcp.elicitation");
    assert.deepEqual(elicitations.filter((e) => e.action).map((e) => [e.mode, e.action]), [
      ["form", "decline"],
      ["url", "decline"],
    ]);
    assert.ok(stream.filter((e) => e.type === "mcp.tool_progress").length >= 2);
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

Deno.test("SK-11 exec --skill injects a skill by path; an unknown --skill exits 2", async () => {
  const s = await e2eSetup();
  const dir = `${s.root}/elsewhere/review`;
  await Deno.mkdir(`${s.env.HOME}/.agents/skills`, { recursive: true });
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/SKILL.md`,
    "---\nname: review\ndescription: Reviews code\n---\nCheck the tests first.\n",
  );
  await Deno.symlink(dir, `${s.env.HOME}/.agents/skills/review`);
  const server = await startFixtureModelServer({ script: [{ text: "reviewed" }] });
  try {
    const run = await runTrellis(
      [
        "exec",
        "--json",
        ...s.flags(server.url),
        "--skill",
        `${s.env.HOME}/.agents/skills/review/SKILL.md`,
        "go",
      ],
      { env: s.env, cwd: s.workspace },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(JSON.stringify(server.requests[0]), /<name>review<\/name>.*Check the tests first/);
  } finally {
    await server.close();
  }
  const bad = await runTrellis(["exec", "-c", "model_provider=ollama", "--skill", "nope", "go"], {
    env: s.env,
    cwd: s.workspace,
  });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Cannot select skill "nope"/);
});
