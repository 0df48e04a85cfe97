import assert from "node:assert/strict";
import { validateLayer } from "../../lib/config/mod.ts";
import {
  type McpRegistration,
  type McpServerConfig,
  parseMcpJson,
  resolveCatalog,
  serverConfigFromTable,
} from "../../lib/mcp/mod.ts";

/** The problem validateLayer reports for the one server in `raw` (the server is left out, not fatal). */
function validationError(raw: Record<string, unknown>): string {
  const { value, invalidMcpServers } = validateLayer({ mcp_servers: raw }, { file: "c.toml" });
  if (invalidMcpServers.length === 0) return "valid";
  assert.deepStrictEqual(Object.keys(value.mcp_servers ?? {}), []);
  return `Invalid config ${invalidMcpServers[0].file}: ${invalidMcpServers[0].reason}`;
}

Deno.test("validateLayer() rejects mixed transport fields naming server and field (MCP-4)", () => {
  assert.deepStrictEqual(
    validationError({ s: { command: "x", url: "http://x" } }),
    "Invalid config c.toml: mcp_servers.s.url: url is not supported for stdio",
  );
  assert.deepStrictEqual(
    validationError({ s: { url: "http://x", cwd: "/" } }),
    "Invalid config c.toml: mcp_servers.s.cwd: cwd is not supported for streamable_http",
  );
  assert.deepStrictEqual(
    validationError({ s: { enabled: true, args: ["x"] } }),
    "Invalid config c.toml: mcp_servers.s.command: invalid transport: set command (stdio) or url " +
      "(streamable HTTP); a table with only `enabled` switches a server defined elsewhere (Codex's or " +
      "Claude Code's files, .mcp.json)",
  );
  // A table with only `enabled` is a switch over a server defined elsewhere (#21 item 9).
  assert.deepStrictEqual(validationError({ s: { enabled: false } }), "valid");
  assert.notDeepStrictEqual(
    validationError({ s: { enabled: "no" } }),
    "valid",
  );
  assert.deepStrictEqual(
    validationError({ s: { url: "http://x", bearer_token: "secret" } }),
    "Invalid config c.toml: mcp_servers.s.bearer_token: bearer_token is not supported for streamable_http",
  );
});

Deno.test("validateLayer() reports unknown server keys and bad names as that server's failure (MCP-4)", () => {
  assert.deepStrictEqual(
    validationError({ s: { command: "x", colour: "red" } }),
    "Invalid config c.toml: mcp_servers.s.colour: unknown field `colour`",
  );
  assert.match(
    validationError({ "bad name": { command: "x" } }),
    /mcp_servers."bad name": invalid server name/,
  );
  assert.deepStrictEqual(
    validationError({ s: { command: "x", env_vars: [{ name: "A", source: "cloud" }] } }),
    "Invalid config c.toml: mcp_servers.s.env_vars[0].source: unsupported env_vars source `cloud`; expected `local` or `remote`",
  );
});

Deno.test("serverConfigFromTable() applies Codex defaults and startup_timeout_sec over _ms (MCP-5)", () => {
  const config = serverConfigFromTable("s", {
    command: "srv",
    startup_timeout_ms: 5000,
    startup_timeout_sec: 2,
    tools: { t: { approval_mode: "prompt" } },
    env_vars: ["A", { name: "B", source: "local" }],
  });
  assert.deepStrictEqual(config, {
    name: "s",
    transport: { type: "stdio", command: "srv", args: [], env: {}, envVars: ["A", "B"], cwd: undefined },
    enabled: true,
    required: false,
    startupTimeoutMs: 2000,
    toolTimeoutMs: 300_000,
    toolMaxMs: 3_600_000,
    enabledTools: undefined,
    disabledTools: [],
    defaultApprovalMode: "auto",
    toolApprovalModes: { t: "prompt" },
    supportsParallelToolCalls: false,
    scopes: [],
    oauthClientId: undefined,
    oauthResource: undefined,
    environmentId: "local",
    sampling: "prompt",
    samplingMaxTokens: 10_000,
  });
});

Deno.test("parseMcpJson() reads Claude Code entries with ${VAR} and ${VAR:-default} expansion", () => {
  const env: Record<string, string> = { TOKEN: "t0k", ROOT: "/srv" };
  const text = JSON.stringify({
    mcpServers: {
      local: { command: "${ROOT}/bin/srv", args: ["--port", "${PORT:-8080}"], env: { KEY: "${TOKEN}" } },
      remote: { type: "http", url: "https://h/${PATHX:-mcp}", headers: { Authorization: "Bearer ${TOKEN}" } },
      legacy: { type: "sse", url: "https://h/sse" },
      unset: { command: "${MISSING}" },
      "bad name": { command: "x" },
    },
  });
  const { servers, diagnostics } = parseMcpJson(text, { file: "/p/.mcp.json", env: (n) => env[n] });
  assert.deepStrictEqual(servers.map((s) => s.transport), [
    {
      type: "stdio",
      command: "/srv/bin/srv",
      args: ["--port", "8080"],
      env: { KEY: "t0k" },
      envVars: [],
      cwd: undefined,
    },
    {
      type: "streamable_http",
      url: "https://h/mcp",
      bearerTokenEnvVar: undefined,
      httpHeaders: { Authorization: "Bearer t0k" },
      envHttpHeaders: {},
    },
    { type: "sse", url: "https://h/sse", httpHeaders: {} },
    // Claude Code leaves an unset variable as written; the server still loads (issue 14).
    { type: "stdio", command: "${MISSING}", args: [], env: {}, envVars: [], cwd: undefined },
  ]);
  assert.deepStrictEqual(diagnostics.map((d) => [d.level, d.subject, d.message]), [
    [
      "warning",
      "unset",
      'MCP server "unset" in /p/.mcp.json: ${MISSING} is not set and has no default; left as written',
    ],
    ["error", "bad name", 'Cannot load MCP server "bad name" from /p/.mcp.json: invalid server name'],
  ]);
});

function reg(tier: McpRegistration["tier"], source: string, name: string, enabled = true): McpRegistration {
  const config: McpServerConfig = { ...serverConfigFromTable(name, { command: source }), enabled };
  return { tier, source, config };
}

Deno.test("resolveCatalog() applies tier precedence, records same-tier conflicts and sorts by name (MCP-1)", () => {
  const catalog = resolveCatalog([
    reg("extension", "ext", "b"),
    reg("plugin", "p1", "a"),
    reg("plugin", "p2", "a"),
    reg("config", "cfg", "b"),
    reg("plugin", "p3", "b"),
    reg("compatibility", "compat", "c"),
  ]);
  assert.deepStrictEqual(catalog.servers.map((s) => [s.config.name, s.source]), [["a", "p1"], ["b", "ext"], [
    "c",
    "compat",
  ]]);
  assert.deepStrictEqual(catalog.conflicts, [{ server: "a", outcome: "p1", contenders: ["p1", "p2"] }]);
});

Deno.test("resolveCatalog() lets a disabled winner veto its name except a disabled SelectedPlugin (MCP-1)", () => {
  const vetoed = resolveCatalog([
    reg("plugin", "p", "x"),
    reg("config", "cfg", "x", false),
    reg("extension", "ext", "x"),
  ]);
  assert.deepStrictEqual(vetoed.servers, []);
  assert.deepStrictEqual(vetoed.disabled.map((d) => d.source), ["cfg"]);
  const selected = resolveCatalog([reg("plugin", "p", "x"), reg("selected_plugin", "sel", "x", false)]);
  assert.deepStrictEqual(selected.servers.map((s) => s.source), ["p"]);
  assert.deepStrictEqual(selected.disabled, []);
});
