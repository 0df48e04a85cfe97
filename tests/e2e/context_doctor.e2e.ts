/**
 * The binary against real temp trees (#17 items 3 and 5): `debug context` counts a real stdio MCP
 * server's tools with o200k_base, `/context` prints the live session's ledger in the terminal, and
 * `doctor` reports a failing MCP server and a broken config layer with fixes, exiting 1.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";
import { TmuxTerminal } from "./_tmux.ts";
import { trustEntry } from "../helpers/trust_project.ts";

const MANY_TOOLS = new URL("../../fixtures/mcp/many_tools_server.mjs", import.meta.url).pathname;
const FIXTURE = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;
const KNOWN = "Hello, world! The quick brown fox jumps over the lazy dog."; // 14 o200k_base tokens

Deno.test("e2e: debug context --json counts every source of a real tree with o200k_base, with advice (#17 item 3)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.workspace}/AGENTS.md`, KNOWN);
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `model = "gpt-5"\ntool_search = false\n[mcp_servers.many]\ncommand = "node"\nargs = [${
      JSON.stringify(MANY_TOOLS)
    }, "120"]\n`,
  );
  const run = await runTrellis(["debug", "context", "--json", "look at the fox"], {
    env: s.env,
    cwd: s.workspace,
  });
  assert.equal(run.code, 0, run.stderr);
  const ledger = JSON.parse(run.stdout);
  assert.equal(ledger.encoding, "o200k_base");
  assert.equal(ledger.contextWindow, 272_000);
  const sources = new Set(ledger.rows.map((r: { source: string }) => r.source));
  for (
    const source of [
      "base_instructions",
      "config_instructions",
      "project_instructions",
      "builtin_tools",
      "mcp_tools",
      "other_tools",
      "skills_catalog",
      "plugin_summaries",
      "skill_bodies",
      "mcp_prompts",
      "hook_context",
      "history",
      "tool_outputs",
      "attachments",
      "prompt",
    ]
  ) assert.ok(sources.has(source), source);
  const row = (name: string) => ledger.rows.find((r: { name: string }) => r.name === name);
  assert.equal(row(`AGENTS.md ${s.workspace}/AGENTS.md`).tokens, 14);
  assert.equal(row("prompt").tokens, 4); // look | at | the | fox
  assert.equal(row("MCP server many").items, 120);
  assert.match(
    ledger.advice[0],
    /^MCP server many declares \d+\.\dk tokens of tools \(120\): enable tool search/,
  );
  assert.equal(ledger.total, ledger.rows.reduce((sum: number, r: { tokens: number }) => sum + r.tokens, 0));
});

Deno.test("e2e: /context in the interactive mode prints the live session's ledger, its history included (#17 item 3)", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({ script: [{ text: "The fox is quick." }] });
  const terminal = await TmuxTerminal.start({ cwd: s.workspace, env: s.env, args: s.flags(server.url) });
  try {
    await terminal.waitFor(/^›$/m);
    await terminal.typeLine("where is the fox?");
    await terminal.waitFor(/The fox is quick\./);
    await terminal.typeLine("/context");
    const screen = await terminal.waitFor(/\s+total$/m);
    assert.match(screen, /context ledger: model fixture-model, tokens by ESTIMATE \(characters \/ 4\)/);
    // The first prompt and the answer: (17 + 17 characters) / 4, rounded up per message.
    assert.match(screen, /^\s+10\s+\S+\s+history \(messages and tool calls\) \(2\)$/m);
    assert.match(screen, /built-in tools \(11\)$/m);
    await terminal.press("C-d");
    assert.equal(await terminal.exitCode(), 0);
  } finally {
    await terminal.close();
    await server.close();
  }
});

Deno.test("e2e: doctor shows a failing MCP server and a broken config layer with fixes, and exits 1 (#17 item 5)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    [
      "[mcp_servers.good]",
      'command = "node"',
      `args = [${JSON.stringify(FIXTURE)}]`,
      "[mcp_servers.broken]",
      'command = "node"',
      `args = [${JSON.stringify(`${s.root}/no-such-server.mjs`)}]`,
    ].join("\n") + "\n",
  );
  await Deno.mkdir(`${s.workspace}/.trellis`);
  await Deno.writeTextFile(`${s.workspace}/.trellis/config.toml`, 'approval_policy = "sometimes"\n');
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    (await Deno.readTextFile(`${s.env.TRELLIS_HOME}/config.toml`)) + trustEntry(s.workspace),
  );
  const env = { ...s.env, SHELL: "/bin/sh" };
  const text = await runTrellis(["doctor", "--timeout", "5"], { env, cwd: s.workspace });
  assert.equal(text.code, 1, text.stderr);
  const lines = text.stdout.split("\n");
  const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
  const config = at(/^FAIL\s+config project\s+.*\.trellis\/config\.toml/);
  assert.ok(config >= 0, text.stdout);
  assert.match(lines[config], /approval_policy/);
  assert.match(lines[config + 1], /^\s+fix: fix .*\/\.trellis\/config\.toml/);
  const broken = at(/^FAIL\s+mcp broken\s+/);
  assert.ok(broken >= 0, text.stdout);
  assert.match(lines[broken + 1], /^\s+fix: run `trellis mcp tools broken`/);
  assert.ok(at(/^ok\s+mcp good\s+started in \d+ ms, \d+ tools/) >= 0, text.stdout);
  assert.ok(at(/^ok\s+config user\s+/) >= 0, text.stdout);
  assert.ok(at(/^ok\s+sandbox\s+bwrap .* passed the self-check/) >= 0, text.stdout);

  const json = await runTrellis(["doctor", "--json", "--timeout", "5"], { env, cwd: s.workspace });
  assert.equal(json.code, 1);
  const report = JSON.parse(json.stdout);
  assert.equal(report.failed, true);
  for (const row of report.rows) {
    assert.deepEqual(
      Object.keys(row).filter((k) => k !== "fix"),
      ["status", "check", "detail"],
    );
    assert.ok(["ok", "warn", "fail", "skip"].includes(row.status));
    if (row.status === "fail") assert.equal(typeof row.fix, "string", row.check);
  }
  assert.deepEqual(
    report.rows.filter((r: { status: string }) => r.status === "fail").map((r: { check: string }) => r.check),
    ["config project", "mcp broken"],
  );
});
