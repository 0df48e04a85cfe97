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
    `${s.env.TRELLIS_HOME}/plugins/data/demo@test`,
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

const CLAUDE_MARKET = new URL("../../fixtures/plugins/claude-market", import.meta.url).pathname;

/** An e2e sandbox with a writable copy of the Claude-shaped fixture marketplace, added. */
async function claudeMarket() {
  const s = await e2eSetup();
  const market = `${s.workspace.replace(/\/[^/]+$/, "")}/claude-market`;
  const cp = await new Deno.Command("cp", { args: ["-a", CLAUDE_MARKET, market] }).output();
  assert.equal(cp.code, 0);
  const trellis = (...argv: string[]) => runTrellis(argv, { env: s.env, cwd: s.workspace });
  const add = await trellis("plugin", "marketplace", "add", market);
  assert.equal(add.code, 0, add.stderr);
  return { s, market, trellis };
}

Deno.test("issue 14 item 4: plugins without plugin.json, strict:false entries and lspServers install", async () => {
  const { trellis, market } = await claudeMarket();
  const devKit = await trellis("plugin", "install", "dev-kit@claude");
  assert.equal(devKit.code, 0, devKit.stderr);
  assert.match(
    devKit.stdout,
    /^Installed dev-kit@claude local \(sha256:[0-9a-f]{64}\): 1 skills, 1 hooks, 2 commands/,
  );
  const lsp = await trellis("plugin", "install", "ts-lsp@claude");
  assert.equal(lsp.code, 0, lsp.stderr);
  assert.equal(
    lsp.stderr,
    "note: ts-lsp@claude: recorded but not run by Trellis: lspServers (typescript); it contributes nothing else\n",
  );
  const badShape = await trellis("plugin", "install", "bad-shape@claude");
  assert.equal(badShape.code, 0, badShape.stderr);
  assert.match(
    badShape.stderr,
    new RegExp(`ignoring ${market}/plugins/bad-shape/\\.claude-plugin/plugin\\.json: expected a JSON object`),
  );
  const skills = await trellis("skills", "list", "--json");
  assert.equal(skills.code, 0, skills.stderr);
  const names = (JSON.parse(skills.stdout).skills as { name: string }[]).map((k) => k.name);
  assert.ok(names.includes("dev-kit:plugin-layout"), names.join(","));
  assert.ok(names.includes("bad-shape:still-here"), names.join(","));
  const list = await trellis("plugin", "list");
  assert.equal(list.code, 0, list.stderr);
  assert.match(
    list.stdout,
    /^bad-shape@claude {2}local {2}active {2}skills\ndev-kit@claude {2}local {2}active {2}skills\nts-lsp@claude {2}1\.0\.0 {2}active\n$/,
  );
});

Deno.test("issue 14 item 5: plugin show lists commands, agents and hooks with what became of each", async () => {
  const { trellis } = await claudeMarket();
  assert.equal((await trellis("plugin", "install", "dev-kit@claude")).code, 0);
  const show = await trellis("plugin", "show", "dev-kit@claude");
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /\ncomponents:\n {2}skills {4}skills {17}active\n/);
  assert.match(
    show.stdout,
    /\n {2}commands {2}dev-kit:create-plugin {2}active {2}commands\/create-plugin\.md\n/,
  );
  assert.match(
    show.stdout,
    /\n {2}agents {4}plugin-validator {7}active {2}subagent dev-kit:plugin-validator\n$/,
  );
  const json = JSON.parse((await trellis("plugin", "show", "dev-kit@claude", "--json")).stdout);
  assert.deepEqual(json.components.map((c: { kind: string; status: string }) => `${c.kind}:${c.status}`), [
    "skills:active",
    "hooks:active",
    "commands:active",
    "commands:active",
    "agents:active",
  ]);
});

Deno.test("issue 14 item 6: plugin MCP servers of context7/github/cloudflare/SSE shapes load; a broken duplicate evicts nothing", async () => {
  const { trellis, s } = await claudeMarket();
  for (const id of ["ctx-docs", "gh-tools", "cloud-api", "events", "dup-a", "dup-b"]) {
    const run = await trellis("plugin", "install", `${id}@claude`);
    assert.equal(run.code, 0, run.stderr);
  }
  const list = await trellis("mcp", "list", "--json");
  assert.equal(list.code, 0, list.stderr);
  const servers = JSON.parse(list.stdout) as {
    name: string;
    plugin: string;
    transport: Record<string, unknown>;
  }[];
  assert.deepEqual(servers.map((e) => [e.name, e.plugin, e.transport.type]), [
    ["cloud-api", "cloud-api@claude", "streamable_http"],
    ["ctx-docs", "ctx-docs@claude", "streamable_http"],
    ["events", "events@claude", "sse"],
    ["gh-tools", "gh-tools@claude", "streamable_http"],
    ["shared", "dup-b@claude", "stdio"],
  ]);
  const ctx = servers.find((e) => e.name === "ctx-docs")!;
  assert.deepEqual(ctx.transport.http_headers, { Authorization: "", "X-Client": "trellis" });
  const shared = servers.find((e) => e.name === "shared")!;
  assert.deepEqual(shared.transport.args, ["--data", `${s.env.TRELLIS_HOME}/plugins/data/dup-b@claude`]);
  assert.match(list.stderr, /Cannot load MCP server "shared" from plugin dup-a@claude: \.mcp\.json: /);
  assert.match(list.stderr, /\$\{GH_TOOLS_TOKEN\} is not set and has no default; left as written/);
});

Deno.test("issue 13 item 10: x-y@z and x@y-z keep separate data; uninstall --purge of one leaves the other's", async () => {
  const s = await e2eSetup();
  const trellis = (...argv: string[]) => runTrellis(argv, { env: s.env, cwd: s.workspace });
  for (const [market, plugin] of [["z", "x-y"], ["y-z", "x"]]) {
    const root = `${s.workspace}/../m-${market}`;
    await Deno.mkdir(`${root}/.claude-plugin`, { recursive: true });
    await Deno.mkdir(`${root}/${plugin}/skills`, { recursive: true });
    await Deno.writeTextFile(
      `${root}/.claude-plugin/marketplace.json`,
      JSON.stringify({
        name: market,
        owner: { name: "t" },
        plugins: [{ name: plugin, source: `./${plugin}` }],
      }),
    );
    assert.equal((await trellis("plugin", "marketplace", "add", root)).code, 0);
    assert.equal((await trellis("plugin", "install", `${plugin}@${market}`)).code, 0);
  }
  const data = `${s.env.TRELLIS_HOME}/plugins/data`;
  await Deno.writeTextFile(`${data}/x-y@z/state`, "mine");
  const purge = await trellis("plugin", "uninstall", "x@y-z", "--purge");
  assert.deepEqual([purge.code, purge.stdout], [0, "Uninstalled x@y-z (data deleted)\n"]);
  assert.equal(await Deno.readTextFile(`${data}/x-y@z/state`), "mine");
});

Deno.test("issue 13: plugin verify trusts no record inside the bundle; an oversized local plugin is refused", async () => {
  const s = await e2eSetup();
  const trellis = (...argv: string[]) => runTrellis(argv, { env: s.env, cwd: s.workspace });
  const market = `${s.workspace}/../market`;
  const cp = await new Deno.Command("cp", {
    args: ["-a", new URL("../../fixtures/plugins/market", import.meta.url).pathname, market],
  }).output();
  assert.equal(cp.code, 0);
  assert.equal((await trellis("plugin", "marketplace", "add", market)).code, 0);
  assert.equal((await trellis("plugin", "install", "demo@test")).code, 0);
  const root = `${s.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  await Deno.writeTextFile(`${root}/hooks/check.sh`, "#!/bin/sh\ncurl evil\n");
  await Deno.writeTextFile(
    `${root}/.trellis-install.json`,
    JSON.stringify({ schema: 1, digest: "sha256:forged" }),
  );
  const verify = await trellis("plugin", "verify", "demo@test");
  assert.equal(verify.code, 1);
  assert.match(
    verify.stdout,
    /^demo@test: modified \(expected sha256:[0-9a-f]{64}, found sha256:[0-9a-f]{64}\)\n$/,
  );
  const truncate = await new Deno.Command("truncate", {
    args: ["-s", "3G", `${market}/plugins/demo/blob.bin`],
  })
    .output();
  assert.equal(truncate.code, 0);
  const big = await trellis("plugin", "update", "demo@test");
  assert.equal(big.code, 2);
  assert.equal(
    big.stderr,
    'error: Cannot install "demo@test": ./blob.bin (3 GiB) takes the bundle over the 250 MiB size limit\n',
  );
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
