import assert from "node:assert/strict";
import { importClaudeEntry, mcpServersFromConfig, parseMcpJson } from "../../lib/mcp/mod.ts";
import { readMcpServerEntries } from "../../lib/mcp/mcp_json.ts";
import { platform } from "../../lib/platform/mod.ts";
import { loadPlugins } from "../../lib/plugins/mod.ts";
import { CLAUDE_MARKET, pluginSandbox } from "../plugins/_helpers.ts";

// Issue 14 item 6: one reader for projects, plugins and ~/.claude.json, fed the shapes real
// marketplaces ship (context7, github, greptile, cloudflare-api, an SSE server, duplicates).

Deno.test("plugin MCP servers in Claude Code and Codex shapes all load through the one reader (MCP-4)", async () => {
  const box = await pluginSandbox({ fixture: CLAUDE_MARKET });
  for (const id of ["ctx-docs", "gh-tools", "events", "cloud-api", "dup-a", "dup-b"]) {
    const run = await box.cli("plugin", "install", `${id}@claude`);
    assert.equal(run.code, 0, run.stderr);
  }
  const loaded = await box.config();
  const plugins = await loadPlugins({ loaded, platform });
  const { catalog, diagnostics } = mcpServersFromConfig(loaded, {
    platform,
    pluginServers: plugins.contributions.mcpServers,
  });
  const cache = `${box.env.TRELLIS_HOME}/plugins/cache/claude`;
  assert.deepStrictEqual(catalog.servers.map((s) => [s.config.name, s.source, s.config.transport]), [
    ["cloud-api", "plugin:cloud-api@claude", {
      type: "streamable_http",
      url: "https://cloud.example.invalid/mcp",
      bearerTokenEnvVar: undefined,
      httpHeaders: {},
      envHttpHeaders: {},
    }],
    ["ctx-docs", "plugin:ctx-docs@claude", {
      type: "streamable_http",
      url: "https://docs.example.invalid/mcp",
      bearerTokenEnvVar: undefined,
      httpHeaders: { Authorization: "", "X-Client": "trellis" },
      envHttpHeaders: {},
    }],
    ["events", "plugin:events@claude", {
      type: "sse",
      url: "http://127.0.0.1:9/sse",
      httpHeaders: { "X-Team": "core" },
    }],
    ["gh-tools", "plugin:gh-tools@claude", {
      type: "streamable_http",
      url: "https://code.example.invalid/mcp/",
      bearerTokenEnvVar: undefined,
      httpHeaders: { Authorization: "Bearer ${GH_TOOLS_TOKEN}" },
      envHttpHeaders: {},
    }],
    // dup-a loads first but its "shared" is broken: it never takes the name from dup-b's.
    ["shared", "plugin:dup-b@claude", {
      type: "stdio",
      command: `${cache}/dup-b/local/server.sh`,
      args: ["--data", `${box.env.TRELLIS_HOME}/plugins/data/dup-b@claude`],
      env: {},
      envVars: [],
      cwd: `${cache}/dup-b/local`,
    }],
  ]);
  assert.deepStrictEqual(diagnostics.map((d) => [d.level, d.message]), [
    [
      "info",
      'plugin cloud-api@claude: MCP server "cloud-api": ignoring keys Trellis does not use: note',
    ],
    [
      "info",
      'plugin ctx-docs@claude: MCP server "ctx-docs": ignoring keys Trellis does not use: note',
    ],
    [
      "error",
      'Cannot load MCP server "shared" from plugin dup-a@claude: .mcp.json: url: type "http" needs url',
    ],
    [
      "warning",
      'MCP server "gh-tools" in plugin gh-tools@claude: .mcp.json: ${GH_TOOLS_TOKEN} is not set and has no default; left as written',
    ],
  ]);
});

Deno.test("two valid plugin servers of one name: the first plugin's wins and the loser is named (MCP-1)", async () => {
  const box = await pluginSandbox({ fixture: CLAUDE_MARKET });
  // dup-a's broken server is fixed: now both are valid.
  await platform.fs.writeTextFile(
    `${box.market}/plugins/dup-a/.mcp.json`,
    JSON.stringify({ mcpServers: { shared: { command: "true" } } }),
  );
  for (const id of ["dup-a", "dup-b"]) {
    assert.equal((await box.cli("plugin", "install", `${id}@claude`)).code, 0);
  }
  const loaded = await box.config();
  const plugins = await loadPlugins({ loaded, platform });
  const { catalog, diagnostics } = mcpServersFromConfig(loaded, {
    platform,
    pluginServers: plugins.contributions.mcpServers,
  });
  assert.deepStrictEqual(catalog.servers.map((s) => s.source), ["plugin:dup-a@claude"]);
  assert.deepStrictEqual(diagnostics.map((d) => d.message), [
    'MCP server "shared" is defined more than once: using plugin:dup-a@claude; ignoring plugin:dup-b@claude',
  ]);
});

Deno.test("parseMcpJson() warns once, naming the file, when .mcp.json is an array", () => {
  const read = parseMcpJson('[{"command": "x"}]', { file: "/p/.mcp.json", env: () => undefined });
  assert.deepStrictEqual(read, {
    servers: [],
    diagnostics: [{
      level: "warning",
      message: 'Cannot read "/p/.mcp.json": expected an object of MCP servers, found an array',
      file: "/p/.mcp.json",
    }],
    failed: [],
  });
});

Deno.test("readMcpServerEntries() reads ~/.claude.json's user and per-project mcpServers maps", () => {
  // The shape of ~/.claude.json: user servers at the top, project servers under projects.<path>.
  const claudeJson = {
    numStartups: 3,
    mcpServers: {
      notes: { type: "stdio", command: "npx", args: ["-y", "notes-mcp"], env: { LEVEL: "${LEVEL:-warn}" } },
    },
    projects: {
      "/work/app": {
        allowedTools: [],
        mcpServers: { api: { type: "sse", url: "https://api.example.invalid/sse" } },
      },
    },
  };
  const env = () => undefined;
  const user = readMcpServerEntries(claudeJson.mcpServers, { file: "~/.claude.json", env });
  const project = readMcpServerEntries(claudeJson.projects["/work/app"].mcpServers, {
    file: "~/.claude.json#projects./work/app",
    env,
  });
  assert.deepStrictEqual(user.servers.map((s) => s.transport), [
    {
      type: "stdio",
      command: "npx",
      args: ["-y", "notes-mcp"],
      env: { LEVEL: "warn" },
      envVars: [],
      cwd: undefined,
    },
  ]);
  assert.deepStrictEqual(project.servers.map((s) => s.transport), [
    { type: "sse", url: "https://api.example.invalid/sse", httpHeaders: {} },
  ]);
  assert.deepStrictEqual([...user.diagnostics, ...project.diagnostics], []);
});

Deno.test("readMcpServerEntries() maps Claude's headers and oauth.clientId, keeps Codex keys, names unknown ones once", () => {
  const read = readMcpServerEntries({
    a: {
      type: "http",
      url: "https://a.example.invalid/mcp",
      headers: { "X-A": "1" },
      http_headers: { "X-B": "2" },
      oauth: { clientId: "cid", callbackPort: 8080 },
      tool_timeout_sec: 900,
      note: "n",
      homepage: "h",
    },
    b: { type: "websocket", url: "wss://b" },
  }, { file: "/p/.mcp.json", env: () => undefined });
  assert.equal(read.servers.length, 1);
  const [a] = read.servers;
  assert.deepStrictEqual([a.transport, a.oauthClientId, a.toolTimeoutMs], [
    {
      type: "streamable_http",
      url: "https://a.example.invalid/mcp",
      bearerTokenEnvVar: undefined,
      httpHeaders: { "X-A": "1", "X-B": "2" },
      envHttpHeaders: {},
    },
    "cid",
    900_000,
  ]);
  assert.deepStrictEqual(read.diagnostics.map((d) => [d.level, d.message]), [
    ["warning", 'MCP server "a" in /p/.mcp.json: oauth.callbackPort is not supported; ignored'],
    [
      "error",
      'Cannot load MCP server "b" from /p/.mcp.json: unknown type "websocket" (expected stdio, http or sse)',
    ],
    ["info", "/p/.mcp.json: ignoring keys Trellis does not use: a.note, a.homepage"],
  ]);
});

Deno.test("every `type` word Claude Code and Codex users write names its transport, in .mcp.json and in imports (#16 item 5)", () => {
  for (const type of ["http", "streamable_http", "streamable-http"]) {
    const read = readMcpServerEntries({ s: { type, url: "https://x.example.invalid/mcp" } }, {
      file: ".mcp.json",
      env: () => undefined,
    });
    assert.deepStrictEqual(
      [read.servers[0]?.transport.type, read.diagnostics],
      ["streamable_http", []],
      type,
    );
    assert.equal(importClaudeEntry("s", { type, url: "https://x.example.invalid/mcp" }).ok, true, type);
  }
  const sse = importClaudeEntry("s", { type: "sse", url: "https://x.example.invalid/sse" });
  assert.deepStrictEqual(sse, {
    ok: false,
    reason: "an SSE server: config.toml's [mcp_servers] (Codex's format) has no SSE transport",
  });
  const odd = readMcpServerEntries(
    { "bad name": { command: "x" }, s: { type: "websocket", url: "ws://x" } },
    {
      file: ".mcp.json",
      env: () => undefined,
    },
  );
  assert.deepStrictEqual(odd.diagnostics.map((d) => d.message), [
    'Cannot load MCP server "bad name" from .mcp.json: invalid server name',
    'Cannot load MCP server "s" from .mcp.json: unknown type "websocket" (expected stdio, http or sse)',
  ]);
});
