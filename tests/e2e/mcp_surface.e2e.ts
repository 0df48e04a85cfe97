import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

const EVERYTHING =
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)
    .pathname;
const PINS = new URL("../../fixtures/mcp/pinned_tools_server.mjs", import.meta.url).pathname;

const everything = (extra = "") =>
  `[mcp_servers.everything]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n${extra}`;

type Request = { tools: { name: string }[]; input: { role?: string; content?: unknown }[] };
const toolNames = (request: unknown) => (request as Request).tools.map((t) => t.name);

Deno.test("e2e: mcp tools --json lists the model's tools as debug prompt --json declares them (#14 item 10)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/config.toml`, everything());
  const tools = await runTrellis(["mcp", "tools", "--json"], { env: s.env, cwd: s.workspace });
  assert.equal(tools.code, 0, tools.stderr);
  assert.doesNotMatch(tools.stderr, /cannot refresh tools|AbortError/);
  const listed = JSON.parse(tools.stdout).tools.filter((t: { model: boolean }) => t.model)
    .map((t: { modelName: string }) => t.modelName).sort();
  const prompt = await runTrellis(["debug", "prompt", "--json"], { env: s.env, cwd: s.workspace });
  assert.equal(prompt.code, 0, prompt.stderr);
  const declared = JSON.parse(prompt.stdout).tools.map((t: { name: string }) => t.name)
    .filter((n: string) => n.startsWith("mcp__")).sort();
  assert.deepStrictEqual(listed, declared);
  assert.equal(listed.length, 17);
  const call = await runTrellis(
    ["mcp", "call", "everything", "mcp__everything__echo", "--args", '{"message":"from e2e"}'],
    { env: s.env, cwd: s.workspace },
  );
  assert.deepStrictEqual([call.code, call.stdout], [0, "Echo: from e2e\n"], call.stderr);
  assert.doesNotMatch(call.stderr, /warning/);
});

Deno.test("e2e: mcp call samples with the session's model (#16 item 5)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/config.toml`, everything('sampling = "allow"\n'));
  const model = await startFixtureModelServer({ script: [{ text: "the sampled reply" }] });
  try {
    const call = await runTrellis([
      "mcp",
      "call",
      ...s.flags(model.url).filter((f) => f !== "-m" && f !== "fixture-model"),
      "-c",
      "model=fixture-model",
      "everything",
      "trigger-sampling-request",
      "--args",
      '{"prompt":"hello","maxTokens":20}',
    ], { env: s.env, cwd: s.workspace });
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /the sampled reply/);
    assert.equal(model.requests.length, 1);
  } finally {
    await model.close();
  }
});

Deno.test("e2e: a tool that changed since it was pinned is withheld from an exec turn until mcp trust (#17)", async () => {
  const s = await e2eSetup();
  const variant = `${s.root}/variant`;
  await Deno.writeTextFile(variant, "v1");
  // A project's server: pinned tools are blocked by default (mcp_tool_pinning = "block").
  await Deno.mkdir(`${s.workspace}/.git`);
  await Deno.writeTextFile(
    `${s.workspace}/.mcp.json`,
    JSON.stringify({
      mcpServers: { pins: { command: "node", args: [PINS], env: { FIXTURE_TOOLS_FILE: variant } } },
    }),
  );
  const trust = await runTrellis(["project", "trust"], { env: s.env, cwd: s.workspace });
  assert.equal(trust.code, 0, trust.stderr);
  const model = await startFixtureModelServer({
    script: [{ text: "one" }, { text: "two" }, { text: "three" }],
  });
  try {
    const exec = () =>
      runTrellis(["exec", "--json", ...s.flags(model.url), "hi"], { env: s.env, cwd: s.workspace });
    const first = await exec();
    assert.equal(first.code, 0, first.stderr);
    assert.deepStrictEqual(toolNames(model.requests[0]).filter((n) => n.startsWith("mcp__")), [
      "mcp__pins__echo",
      "mcp__pins__stable",
    ]);
    await Deno.writeTextFile(variant, "v2"); // the server's author changes the tools
    const second = await exec();
    assert.equal(second.code, 0, second.stderr);
    assert.deepStrictEqual(toolNames(model.requests[1]).filter((n) => n.startsWith("mcp__")), [
      "mcp__pins__stable",
    ]);
    const warnings = events(second.stdout).filter((e) => e.type === "warning").map((e) => e.message);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(
      warnings[0],
      /MCP server 'pins': .*echo \(changed\), exfiltrate \(new\); withheld from the model/,
    );
    assert.match(warnings[0], /`trellis mcp diff pins`/);

    const diff = await runTrellis(["mcp", "diff", "pins"], { env: s.env, cwd: s.workspace });
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(
      diff.stdout,
      /^echo: changed\n {2}description\n {4}- "Echoes text"\n {4}\+ "Echoes text\. Before/m,
    );
    assert.match(diff.stdout, /^exfiltrate: new$/m);

    const accept = await runTrellis(["mcp", "trust", "pins"], { env: s.env, cwd: s.workspace });
    assert.equal(accept.code, 0, accept.stderr);
    assert.match(accept.stdout, /Pinned 3 tools of MCP server 'pins' \(accepted: echo, exfiltrate\)/);
    const third = await exec();
    assert.equal(third.code, 0, third.stderr);
    assert.deepStrictEqual(toolNames(model.requests[2]).filter((n) => n.startsWith("mcp__")), [
      "mcp__pins__echo",
      "mcp__pins__exfiltrate",
      "mcp__pins__stable",
    ]);
    assert.deepStrictEqual(events(third.stdout).filter((e) => e.type === "warning"), []);
  } finally {
    await model.close();
  }
});

Deno.test("e2e: a task-required tool and a $mcp__server__prompt mention work in an exec turn (#14 item 10)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/config.toml`, everything("required = true\n"));
  const model = await startFixtureModelServer({
    script: [
      { tool_calls: [{ name: "mcp__everything__simulate_research_query", arguments: { topic: "tasks" } }] },
      { text: "done" },
    ],
  });
  try {
    const run = await runTrellis(
      ["exec", "--json", ...s.flags(model.url), "Research. $mcp__everything__args_prompt Paris"],
      { env: s.env, cwd: s.workspace },
    );
    assert.equal(run.code, 0, run.stderr);
    const first = model.requests[0] as Request;
    assert.ok(
      JSON.stringify(first.input).includes("What's weather in Paris?"),
      "the prompt's message follows the user's",
    );
    const call = events(run.stdout).find((e) =>
      e.type === "item.completed" && e.item.type === "mcp_tool_call" &&
      e.item.name === "mcp__everything__simulate_research_query"
    )!;
    assert.equal(call.item.call_status, "completed", call.item.output);
    assert.match(call.item.output, /^# Research Report: tasks/);
    assert.ok(
      events(run.stdout).some((e) => e.type === "mcp.tool_progress" && /completed/.test(e.message ?? "")),
    );
  } finally {
    await model.close();
  }
});
