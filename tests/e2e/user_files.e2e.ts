/**
 * Issue 14 item 9 against the binary: the files a Codex or Claude Code user already has are read in
 * place — `config show`, `mcp list`, `hooks list` and `skills list` name each item's origin; an exec
 * turn's request carries the Codex AGENTS.md and the MCP tools of `~/.claude.json`; `import codex
 * --dry-run` writes nothing and `import claude` writes Trellis's config; broken peer files are one
 * warning each, naming the file, and everything else still loads.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { writePeerHome } from "../helpers/peer_home.ts";
import { callItems, events, runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

async function setup() {
  const s = await e2eSetup();
  await Deno.mkdir(`${s.workspace}/.git`);
  const peer = await writePeerHome(s.env.HOME, s.workspace);
  const trellis = (...args: string[]) => runTrellis(args, { env: s.env, cwd: s.workspace });
  return { ...s, peer, trellis };
}

Deno.test("config show names every peer file read in place, its switch and whether it exists", async () => {
  const s = await setup();
  const run = await s.trellis("config", "show", "--json", "-c", "compat.codex_skills=false");
  assert.equal(run.code, 0, run.stderr);
  const compat = JSON.parse(run.stdout).compat as {
    key: string;
    path: string;
    enabled: boolean;
    found: boolean;
  }[];
  assert.deepStrictEqual(compat.map((f) => [f.key, f.path, f.enabled, f.found]), [
    ["compat.codex_config", `${s.peer.codexHome}/config.toml`, true, true],
    ["compat.codex_hooks", `${s.peer.codexHome}/hooks.json`, true, true],
    ["compat.codex_skills", `${s.peer.codexHome}/skills`, false, true],
    ["compat.codex_agents_md", `${s.peer.codexHome}/AGENTS.md`, true, true],
    ["compat.claude_json", s.peer.claudeJson, true, true],
    ["compat.claude_plugins", `${s.peer.claudeDir}/plugins`, true, true],
    ["compat.claude_permissions", `${s.peer.claudeDir}/settings.json`, true, true],
    // Gemini CLI and Copilot CLI hook files (#24 item 3): read when present; this home has none.
    ["compat.gemini", `${s.env.HOME}/.gemini/settings.json`, true, false],
    ["compat.copilot", `${s.env.HOME}/.copilot/hooks`, true, false],
    ["hooks.claude_code", `${s.peer.claudeDir}/settings.json`, true, true],
    ["skills.claude_code", `${s.peer.claudeDir}/skills`, true, true],
    ["project_doc_claude_md", `${s.peer.claudeDir}/CLAUDE.md`, true, false],
  ]);
  const text = await s.trellis("config", "show");
  assert.match(text.stdout, /compat\.claude_json +on +.*\.claude\.json: mcpServers/);
  // Codex's model and approval settings are not Trellis's.
  assert.match(text.stdout, /approval_policy += "on-request" +# built-in/);
});

Deno.test("mcp list, hooks list and skills list show each item from Codex's and Claude Code's files with its origin", async () => {
  const s = await setup();
  const mcp = await s.trellis("mcp", "list", "--json");
  assert.equal(mcp.code, 0, mcp.stderr);
  assert.deepStrictEqual(
    JSON.parse(mcp.stdout).map((m: Record<string, string>) => [m.name, m.origin, m.source]),
    [
      ["claude_fx", "claude", s.peer.claudeJson],
      ["codex_fx", "codex", `${s.peer.codexHome}/config.toml`],
      ["notes_kit_fx", "claude", "plugin:notes-kit@acme-tools"],
    ],
  );
  const mcpText = await s.trellis("mcp", "list");
  assert.match(mcpText.stdout, /^Name +Command \/ URL +Status +Auth +Origin +Source$/m);
  assert.match(mcpText.stdout, /^codex_fx .* codex +.*\/\.codex\/config\.toml$/m);

  const hooks = await s.trellis("hooks", "list", "--json");
  assert.equal(hooks.code, 0, hooks.stderr);
  assert.deepStrictEqual(
    JSON.parse(hooks.stdout).hooks.map((h: Record<string, string>) => [h.origin, h.event, h.source, h.trust]),
    [
      ["codex", "Stop", `${s.peer.codexHome}/hooks.json`, "untrusted"],
      ["codex", "PreToolUse", `${s.peer.codexHome}/config.toml`, "untrusted"],
      ["claude", "PostToolUse", `${s.peer.claudeDir}/settings.json`, "untrusted"],
      ["claude", "SessionStart", "notes-kit@acme-tools:hooks/hooks.json", "untrusted"],
    ],
  );
  assert.match((await s.trellis("hooks", "list")).stdout, /from codex: .*\/\.codex\/hooks\.json/);

  const skills = await s.trellis("skills", "list", "--json");
  assert.equal(skills.code, 0, skills.stderr);
  const byName = Object.fromEntries(
    JSON.parse(skills.stdout).skills.map((k: Record<string, string>) => [k.name, [k.origin, k.plugin]]),
  );
  assert.deepStrictEqual(
    [
      byName["codex-notes"],
      byName["claude-review"],
      byName["notes-kit:notes-kit-skill"],
      byName["skill-installer"],
    ],
    [["codex", null], ["claude", null], ["claude", "notes-kit@acme-tools"], undefined],
  );
  assert.match((await s.trellis("skills", "list")).stdout, /codex-notes \(user, from codex\)/);
});

Deno.test("exec: the request carries the Codex user's AGENTS.md and the MCP tools of ~/.claude.json and an installed Claude plugin", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "mcp__claude_fx__echo", arguments: { text: "from claude.json" } }] }, {
      text: "done",
    }],
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "say hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const request = server.requests[0] as { tools: { name: string }[]; input: { content: unknown }[] };
    const tools = request.tools.map((t) => t.name);
    for (const name of ["mcp__claude_fx__echo", "mcp__codex_fx__echo", "mcp__notes_kit_fx__echo"]) {
      assert.ok(tools.includes(name), `${name} in ${tools.join(", ")}`);
    }
    // A project-scope entry of ~/.claude.json needs project trust.
    assert.ok(!tools.some((t) => t.startsWith("mcp__claude_local__")));
    const input = JSON.stringify(request.input);
    assert.ok(
      input.includes("Codex user rule: answer in haiku when asked for poetry."),
      input.slice(0, 1500),
    );
    const call = callItems(run.stdout).find((item) => item.type === "mcp_tool_call");
    assert.deepStrictEqual([call?.name, call?.call_status, call?.result?.content?.[0]?.text], [
      "mcp__claude_fx__echo",
      "completed",
      "from claude.json",
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("import codex --dry-run prints what it would write and writes nothing; import claude writes Trellis's config and says what it skipped", async () => {
  const s = await setup();
  const userConfig = `${s.env.TRELLIS_HOME}/config.toml`;
  await Deno.writeTextFile(userConfig, '# mine\n[mcp_servers.codex_fx]\ncommand = "keep-me"\n');
  const dry = await s.trellis("import", "codex", "--dry-run");
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /^Would import 4 item\(s\) into .*config\.toml:$/m);
  // Codex's model keys are copied too; the keys that would loosen a session are named, not taken (#21 item 8).
  assert.match(dry.stdout, /\+ model from .*\.codex\/config\.toml/);
  assert.match(dry.stdout, /\+ model_reasoning_effort from .*\.codex\/config\.toml/);
  assert.match(
    dry.stdout,
    /^Not taken from .*\.codex\/config\.toml \(Trellis's own config decides these\): approval_policy, sandbox_mode, projects$/m,
  );
  assert.match(dry.stdout, /\+ hooks\.PreToolUse from .*\.codex\/config\.toml/);
  assert.match(dry.stdout, /\+ hooks\.Stop from .*\.codex\/hooks\.json/);
  assert.match(
    dry.stdout,
    /- mcp_servers\.codex_fx from .*: Trellis's config already has this server \(--force replaces it\)/,
  );
  assert.match(
    dry.stdout,
    /^Would change .*config\.toml \(\+ added, - removed lines\):\n(\+ .*\n)*\+ \[hooks\]\n/m,
  );
  assert.match(
    dry.stdout,
    /^\+ Stop ?= \[\{ hooks = \[\{ type = "command", command = "echo codex-stop" \}\] \}\]$/m,
  );
  assert.equal(await Deno.readTextFile(userConfig), '# mine\n[mcp_servers.codex_fx]\ncommand = "keep-me"\n');

  const claudeJson = JSON.parse(await Deno.readTextFile(s.peer.claudeJson));
  claudeJson.mcpServers.remote_docs = {
    type: "http",
    url: "https://mcp.example.com/mcp",
    headers: { Authorization: "Bearer ${DOCS_TOKEN}" },
  };
  await Deno.writeTextFile(s.peer.claudeJson, JSON.stringify(claudeJson));
  const imported = await s.trellis("import", "claude");
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /^Imported 2 item\(s\) into /m);
  assert.match(imported.stdout, /\+ mcp_servers\.remote_docs from .*\.claude\.json/);
  assert.match(imported.stdout, /\+ hooks\.PostToolUse from .*settings\.json/);
  assert.match(imported.stdout, /- mcp_servers\.claude_fx from .*: args\[1\] uses a \$\{VAR\}/);
  assert.match(
    imported.stdout,
    /- mcp_servers\.claude_local from .*projects.*: Claude Code's per-project server/,
  );
  const written = await Deno.readTextFile(userConfig);
  assert.ok(written.startsWith("# mine\n"), written);
  assert.match(
    written,
    /\[mcp_servers\.remote_docs\]\nurl = "https:\/\/mcp\.example\.com\/mcp"\nbearer_token_env_var = "DOCS_TOKEN"/,
  );
  assert.ok(!written.includes("${DOCS_TOKEN}"));
  // The imported server now comes from Trellis's own config.
  const list = JSON.parse((await s.trellis("mcp", "list", "--json")).stdout);
  const docs = list.find((m: Record<string, string>) => m.name === "remote_docs");
  assert.deepStrictEqual([docs.origin, docs.source], ["trellis", userConfig]);
  const again = await s.trellis("import", "claude");
  assert.match(again.stdout, /^Nothing to import into /m);
  assert.match(again.stdout, /- mcp_servers\.remote_docs .*already has this server/);
});

Deno.test("bad peer files: an unreadable or malformed ~/.claude.json, a Codex config.toml that does not parse, a missing plugin copy — one warning each, the rest loads", async () => {
  const s = await setup();
  await Deno.writeTextFile(`${s.peer.codexHome}/config.toml`, "[mcp_servers.codex_fx\ncommand = 1\n");
  await Deno.remove(s.peer.pluginRoot, { recursive: true });
  const server = await startFixtureModelServer({ script: [{ text: "a" }, { text: "b" }, { text: "c" }] });
  try {
    for (const claudeJson of ["{ not json", '["wrong", "shape"]', null]) {
      await Deno.remove(s.peer.claudeJson, { recursive: true });
      if (claudeJson === null) await Deno.mkdir(s.peer.claudeJson); // unreadable as a file
      else await Deno.writeTextFile(s.peer.claudeJson, claudeJson);
      const before = server.requests.length;
      const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "hi"], {
        env: s.env,
        cwd: s.workspace,
      });
      assert.equal(run.code, 0, run.stderr);
      const warnings = events(run.stdout).filter((e) => e.type === "warning").map((e) => String(e.message));
      const naming = (file: string) => warnings.filter((w) => w.includes(file)).length;
      assert.deepStrictEqual(
        [
          naming(s.peer.claudeJson),
          naming(`${s.peer.codexHome}/config.toml`),
          naming("installed_plugins.json"),
        ],
        [1, 1, 1],
        warnings.join("\n"),
      );
      assert.equal(warnings.length, 3, warnings.join("\n"));
      // Everything else still loads: the neighbours' skills and instructions reach the model.
      const input = JSON.stringify((server.requests[before] as { input: unknown }).input);
      for (const expected of ["codex-notes", "claude-review", "Codex user rule: answer in haiku"]) {
        assert.ok(input.includes(expected), expected);
      }
    }
  } finally {
    await server.close();
  }
  const mcp = await s.trellis("mcp", "list", "--json");
  assert.equal(mcp.code, 0, mcp.stderr);
  assert.deepStrictEqual(JSON.parse(mcp.stdout), []);
  const hooks = JSON.parse((await s.trellis("hooks", "list", "--json")).stdout).hooks;
  assert.deepStrictEqual(hooks.map((h: { event: string }) => h.event), ["Stop", "PostToolUse"]);
});
