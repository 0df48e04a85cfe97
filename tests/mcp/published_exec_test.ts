import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { fixture } from "./_helpers.ts";

const PUBLISHED = fixture("published_server.mjs");
const SLOW = fixture("slow_init.mjs");

async function execJson(config: string, script: unknown[]) {
  const model = await startFixtureModelServer({ script: script as never });
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, config);
  await platform.fs.mkdir(`${root}/ws`);
  try {
    const run = await runCliCaptured([
      "exec",
      "--json",
      "-c",
      "model_provider=fixture",
      "-c",
      `model_providers.fixture.base_url=${JSON.stringify(model.url)}`,
      "-m",
      "fixture-model",
      "hi",
    ], { env, cwd: `${root}/ws` });
    const events = run.stdout.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
    return { run, events, requests: model.requests };
  } finally {
    await model.close();
  }
}

Deno.test("exec --json ends every server's status and emits the start-up summary; a server still starting is cancelled (#21 item 16)", async () => {
  const { run, events } = await execJson(
    `mcp_startup_grace_sec = 0\n` +
      `[mcp_servers.noisy]\ncommand = "node"\nargs = ["${PUBLISHED}", "noisy"]\nrequired = true\n` +
      `[mcp_servers.slow]\ncommand = "node"\nargs = ["${SLOW}", "never"]\nstartup_timeout_sec = 120\n`,
    [{ text: "done" }],
  );
  assert.equal(run.code, 0, run.stderr);
  const statuses = events.filter((e) => e.type === "mcp.server_status").map((e) => [e.server, e.status]);
  assert.deepEqual(statuses.filter(([s]) => s === "noisy"), [["noisy", "starting"], ["noisy", "ready"]]);
  // Before: `slow` stayed "starting" for ever in the stream and no summary came.
  assert.deepEqual(statuses.filter(([s]) => s === "slow"), [["slow", "starting"], ["slow", "cancelled"]]);
  const summaries = events.filter((e) => e.type === "mcp.startup_complete");
  assert.deepEqual(summaries.map(({ ready, failed, cancelled }) => ({ ready, failed, cancelled })), [
    { ready: ["noisy"], failed: [], cancelled: ["slow"] },
  ]);
  // The ignored stdout line is quoted.
  const warnings = events.filter((e) => e.type === "warning" && e.subject === "noisy").map((e) => e.message);
  assert.deepEqual(warnings, [
    "MCP server 'noisy': ignored a stdout line that is not a JSON-RPC message: \"gitlab-mcp v2025.4.25 listening on stdio\"",
  ]);
});

const MANY_TOOLS = fixture("many_tools_server.mjs");

function toolNames(request: unknown): string[] {
  return (request as { tools: { name?: string; function?: { name: string } }[] }).tools
    .map((t) => t.name ?? t.function!.name);
}

Deno.test("an unknown context window is the assumed one: 1,000 MCP tools are deferred behind search_tools, and it says so (#21 item 17)", async () => {
  const server = `[mcp_servers.many]\ncommand = "node"\nargs = ["${MANY_TOOLS}", "1000"]\nrequired = true\n`;
  const { run, events, requests } = await execJson(server, [{ text: "done" }]);
  assert.equal(run.code, 0, run.stderr);
  const names = toolNames(requests[0]);
  assert.ok(names.includes("search_tools"), names.join(", "));
  assert.equal(names.filter((n) => n.startsWith("mcp__many__")).length, 0);
  assert.ok(JSON.stringify(requests[0]).length < 60_000, String(JSON.stringify(requests[0]).length));
  const notices = events.filter((e) => e.type === "notice").map((e) => e.message);
  assert.equal(notices.length, 1, JSON.stringify(notices));
  assert.match(
    notices[0],
    /MCP tools \(1000, ~[\d,]+ tokens\) exceed 10% of the assumed 128,000-token context window/,
  );

  // The neighbour: a stated window large enough keeps every tool declared, and nothing is said.
  const big = await execJson(`model_context_window = 100000000\n${server}`, [{ text: "done" }]);
  assert.equal(big.run.code, 0, big.run.stderr);
  const declared = toolNames(big.requests[0]);
  assert.equal(declared.filter((n) => n.startsWith("mcp__many__")).length, 1000);
  assert.ok(!declared.includes("search_tools"));
  assert.deepEqual(big.events.filter((e) => e.type === "notice"), []);
});

const INSTRUCTIONS = "Always pass the project path as an absolute path. Prefer search_notes over list_notes.";

Deno.test("server instructions reach the model next to its tools, capped; a server without any adds nothing (#21 item 13)", async () => {
  const config =
    `[mcp_servers.notes]\ncommand = "node"\nargs = ["${PUBLISHED}", "instructions"]\nrequired = true\n` +
    `[mcp_servers.plain]\ncommand = "node"\nargs = ["${PUBLISHED}", "gitlab"]\nrequired = true\n` +
    `[mcp_servers.long]\ncommand = "node"\nargs = ["${PUBLISHED}", "instructions", "5000"]\nrequired = true\n`;
  const { run, requests } = await execJson(config, [{ text: "done" }]);
  assert.equal(run.code, 0, run.stderr);
  const sent = JSON.stringify(requests[0]);
  const section =
    "# MCP Server Instructions\\n\\nThe following MCP servers have provided instructions for how to " +
    "use their tools and resources:\\n\\n## long\\n";
  assert.ok(sent.includes(section), sent.slice(0, 4000));
  assert.ok(sent.includes(`## notes\\n${INSTRUCTIONS}`));
  assert.ok(!sent.includes("## plain"));
  // The 5,000-character text is cut at 2,048 with a marker saying so.
  assert.match(sent, /… \[2952 more characters cut: server instructions are capped at 2048\]/);
  const long = sent.slice(sent.indexOf("## long\\n") + "## long\\n".length, sent.indexOf("… [2952"));
  assert.equal(long.length, 2048);
});

Deno.test("a session whose servers send no instructions has no such section (#21 item 13)", async () => {
  const config =
    `[mcp_servers.plain]\ncommand = "node"\nargs = ["${PUBLISHED}", "gitlab"]\nrequired = true\n`;
  const { run, requests } = await execJson(config, [{ text: "done" }]);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(!JSON.stringify(requests[0]).includes("MCP Server Instructions"));
  assert.ok(JSON.stringify(requests[0]).includes("mcp__plain__create_issue"));
});

Deno.test("debug context counts server instructions in their own row (#21 item 13)", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    `model = "gpt-5"\n[mcp_servers.notes]\ncommand = "node"\nargs = ["${PUBLISHED}", "instructions"]\nrequired = true\n`,
  );
  await platform.fs.mkdir(`${root}/ws`);
  const run = await runCliCaptured(["debug", "context", "--json", "hi"], { env, cwd: `${root}/ws` });
  assert.equal(run.code, 0, run.stderr);
  const ledger = JSON.parse(run.stdout);
  const row = ledger.rows.find((r: { source: string }) => r.source === "mcp_instructions");
  assert.equal(row.items, 1);
  assert.ok(row.tokens > 20 && row.tokens < 80, String(row.tokens));
  const base = ledger.rows.find((r: { source: string }) => r.source === "base_instructions");
  const config = ledger.rows.find((r: { source: string }) => r.source === "config_instructions");
  assert.equal(config.tokens, 0); // the section is not taken for config instructions
  assert.ok(base.tokens > 0);
});
