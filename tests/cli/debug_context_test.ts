import assert from "node:assert/strict";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { BASE_INSTRUCTIONS, type ContextLedger, type LedgerSource } from "../../lib/app/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// `trellis debug context` (#17 item 3): the next request's tokens by source, from the request
// `debug prompt` shows, against the model's context window, with advice.

const MANY_TOOLS = new URL("../../fixtures/mcp/many_tools_server.mjs", import.meta.url).pathname;
const KNOWN = "Hello, world! The quick brown fox jumps over the lazy dog."; // 14 o200k_base tokens

const EVERY_SOURCE: LedgerSource[] = [
  "base_instructions",
  "config_instructions",
  "mcp_instructions",
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
];

/** A workspace with AGENTS.md, config instructions, one skill and an MCP server of `tools` tools. */
async function tree(tools: number, schemaBytes = 0) {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  await platform.fs.writeTextFile(`${cwd}/AGENTS.md`, KNOWN);
  const skill = `${env.HOME}/.agents/skills/notes`;
  await platform.fs.mkdir(skill);
  await platform.fs.writeTextFile(
    `${skill}/SKILL.md`,
    "---\nname: notes\ndescription: Keeps notes in NOTES.md\n---\nAppend one line per finding to NOTES.md.\n",
  );
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    [
      'model = "gpt-5"',
      // Trellis's seven file and shell tools and four everyday ones, as counted below (auto would
      // give gpt-5 Codex's set).
      'tool_set = "trellis"',
      'instructions = "Answer in French."',
      "tool_search = false",
      "[skills.bundled]",
      "enabled = false",
      "[mcp_servers.many]",
      'command = "node"',
      `args = [${JSON.stringify(MANY_TOOLS)}, "${tools}", "${schemaBytes}"]`,
    ].join("\n") + "\n",
  );
  return { root, env, cwd };
}

async function ledgerOf(argv: string[], t: { env: Record<string, string>; cwd: string }) {
  const run = await runCliCaptured(["debug", "context", "--json", ...argv], t);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as ContextLedger;
}

const tokens = (ledger: ContextLedger, name: string) => {
  const row = ledger.rows.find((r) => r.name === name);
  assert.ok(row, `no row "${name}" in ${ledger.rows.map((r) => r.name).join(", ")}`);
  return row.tokens;
};

Deno.test("debug context --json: every source has a row, counted exactly with o200k_base, summing to the total", async () => {
  const t = await tree(100);
  const prompt = "Use $notes to record the fox.";
  const ledger = await ledgerOf([prompt], t);
  assert.equal(ledger.model, "gpt-5");
  assert.equal(ledger.encoding, "o200k_base");
  assert.equal(ledger.contextWindow, 272_000);
  assert.deepEqual(new Set(ledger.rows.map((r) => r.source)), new Set(EVERY_SOURCE));
  assert.equal(tokens(ledger, "base instructions"), countTokens(BASE_INSTRUCTIONS));
  assert.equal(tokens(ledger, "config instructions"), countTokens("Answer in French."));
  assert.equal(tokens(ledger, `AGENTS.md ${t.cwd}/AGENTS.md`), 14);
  assert.equal(tokens(ledger, "prompt"), countTokens(prompt));
  assert.ok(
    tokens(ledger, "injected skill bodies") > countTokens("Append one line per finding to NOTES.md."),
  );
  assert.ok(tokens(ledger, "skills catalog") > 0);
  // The seven file and shell tools and the four everyday tools (#23 item 3).
  assert.equal(ledger.rows.find((r) => r.name === "built-in tools")!.items, 11);
  const many = ledger.rows.find((r) => r.name === "MCP server many")!;
  assert.equal(many.items, 100);
  assert.ok(many.tokens > 5_000, String(many.tokens));
  assert.equal(ledger.total, ledger.rows.reduce((sum, r) => sum + r.tokens, 0));
  assert.equal(ledger.share, ledger.total / 272_000);
  assert.equal(many.share, many.tokens / 272_000);
  assert.deepEqual(ledger.advice, [
    `MCP server many declares ${
      (many.tokens / 1000).toFixed(1)
    }k tokens of tools (100): enable tool search ` +
    "(tool_search = true) or keep only the tools you use with [mcp_servers.many] enabled_tools = [...]",
  ]);
  assert.deepEqual(ledger.warnings, []);
});

Deno.test("debug context counts the same request debug prompt shows", async () => {
  const t = await tree(3);
  const run = await runCliCaptured(["debug", "prompt", "--json", "hi"], t);
  assert.equal(run.code, 0, run.stderr);
  const request = JSON.parse(run.stdout);
  const ledger = await ledgerOf(["hi"], t);
  const toolTokens = request.tools.reduce(
    (sum: number, tool: Record<string, unknown>) => sum + countTokens(JSON.stringify(tool)),
    0,
  );
  const toolRows = ledger.rows.filter((r) =>
    ["builtin_tools", "mcp_tools", "other_tools"].includes(r.source)
  );
  assert.equal(toolRows.reduce((sum, r) => sum + r.tokens, 0), toolTokens);
  assert.equal(toolRows.reduce((sum, r) => sum + r.items, 0), request.tools.length);
  const inputTokens = request.input.reduce(
    (sum: number, item: { content: string }) => sum + countTokens(item.content),
    0,
  );
  const inputRows = ledger.rows.filter((r) => !toolRows.includes(r) && !r.source.endsWith("_instructions"));
  const projectRows = ledger.rows.filter((r) => r.source === "project_instructions");
  assert.equal(
    inputRows.reduce((sum, r) => sum + r.tokens, 0) + projectRows.reduce((sum, r) => sum + r.tokens, 0),
    inputTokens,
  );
});

Deno.test("debug context prints a table with shares, the total and advice", async () => {
  const t = await tree(100);
  const run = await runCliCaptured(["debug", "context", "hi"], t);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.split("\n");
  assert.match(
    lines[0],
    /^context ledger: model gpt-5, tokens by o200k_base \(exact\), window 272,000 tokens$/,
  );
  assert.ok(lines.some((l) => /^\s+14\s+0\.0%\s+AGENTS\.md .*\/ws\/AGENTS\.md$/.test(l)), run.stdout);
  assert.ok(lines.some((l) => /^\s+[\d,]+\s+\d+\.\d%\s+MCP server many \(100\)$/.test(l)), run.stdout);
  assert.ok(lines.some((l) => /^\s+[\d,]+\s+\d+\.\d%\s+total$/.test(l)), run.stdout);
  assert.ok(lines.includes("advice:"));
  assert.ok(lines.some((l) => l.startsWith("  - MCP server many declares ")), run.stdout);
});

Deno.test("an unknown model is counted by the labelled estimate, with its own window from config", async () => {
  const t = await tree(3);
  const ledger = await ledgerOf(["-c", 'model="my-local-model"', "-c", "model_context_window=8000", "hi"], t);
  assert.equal(ledger.encoding, "estimate");
  assert.equal(ledger.contextWindow, 8000);
  assert.deepEqual(ledger.warnings, []);
  assert.ok(ledger.notes.some((n) => /no public tokenizer is known for my-local-model/.test(n)));
});

Deno.test("bad input: a tool whose schema is 1 MB is counted, not crashing", async () => {
  const t = await tree(1, 1_000_000);
  const ledger = await ledgerOf(["hi"], t);
  const row = ledger.rows.find((r) => r.name === "MCP server many")!;
  assert.ok(row.tokens >= 125_000 && row.tokens < 126_000, String(row.tokens));
  assert.match(ledger.advice[0], /^MCP server many declares 12\d\.\dk tokens of tools/);
});

Deno.test("bad input: a server that fails to start and tools withheld by pinning are named, not a silent 0 row (#17 items 1, 3)", async () => {
  const t = await tree(2);
  const config = `${t.env.TRELLIS_HOME}/config.toml`;
  const trust = await runCliCaptured(["mcp", "trust", "many"], t);
  assert.equal(trust.code, 0, trust.stderr);
  // The server now presents a third tool its pins do not know, under block; and a second server
  // whose command does not exist.
  const text = await platform.fs.readTextFile(config);
  await platform.fs.writeTextFile(
    config,
    'mcp_tool_pinning = "block"\n' + text.replace(', "2", "0"]', ', "3", "0"]') +
      '[mcp_servers.gone]\ncommand = "/nonexistent/mcp-server"\n',
  );
  const ledger = await ledgerOf(["hi"], t);
  assert.equal(tokens(ledger, "MCP server gone"), 0);
  assert.ok(
    ledger.warnings.some((w) =>
      /MCP server 'gone' failed to start, its tools are not in this request/.test(w)
    ),
    ledger.warnings.join("\n"),
  );
  assert.ok(
    ledger.warnings.some((w) => /MCP server 'many': .*tool_2 \(new\); withheld from the model/.test(w)),
    ledger.warnings.join("\n"),
  );
  const prompt = await runCliCaptured(["debug", "prompt", "--json", "hi"], t);
  assert.equal(prompt.code, 0, prompt.stderr);
  assert.match(prompt.stderr, /warning: MCP server 'gone' failed to start/);
  assert.doesNotMatch(prompt.stdout, /mcp__many__tool_2/);
  JSON.parse(prompt.stdout); // stdout stays the request alone
});
