import assert from "node:assert/strict";
import { mcpServerSchema, plainlyValid } from "../../lib/config/schema/mcp_servers.ts";
import { parseConfigTable } from "../../lib/config/mod.ts";

const VALID: Record<string, unknown>[] = [
  { command: "node" },
  {
    command: "node",
    args: ["server.js", "--flag"],
    env: { A: "1" },
    env_vars: ["HOME", { name: "TOKEN", source: "local" }],
    cwd: "srv",
    enabled: false,
    required: true,
    startup_timeout_sec: 2.5,
    startup_timeout_ms: 0,
    tool_timeout_sec: 10,
    tool_max_sec: 60,
    mcp_tool_pinning: "warn",
    enabled_tools: ["a"],
    disabled_tools: [],
    default_tools_approval_mode: "prompt",
    tools: { a: { approval_mode: "approve" }, b: {} },
    supports_parallel_tool_calls: true,
    name: "n",
    experimental_environment: "e",
    sampling: "deny",
    sampling_max_tokens: 100,
    sandbox: "workspace-write",
    sandbox_network: true,
    sandbox_writable: ["out"],
  },
  // The bounds themselves: the smallest count each positive key takes.
  { command: "node", sampling_max_tokens: 1, tool_max_sec: 1 },
  {
    url: "https://example.com/mcp",
    bearer_token_env_var: "T",
    http_headers: { "X-A": "b" },
    env_http_headers: { "X-B": "VAR" },
    scopes: ["read"],
    oauth: { client_id: "id", extra: 1 },
    oauth_resource: "r",
    sandbox: "none",
  },
];

const INVALID: Record<string, unknown>[] = [
  { command: "" },
  { command: 5 },
  { command: "node", args: [1] },
  { command: "node", args: "x" },
  { command: "node", env: { A: 1 } },
  { command: "node", env_vars: [{}] },
  { command: "node", env_vars: [{ name: "A", source: "cloud" }] },
  { command: "node", startup_timeout_ms: 1.5 },
  { command: "node", startup_timeout_sec: -1 },
  { command: "node", tool_max_sec: 0 },
  { command: "node", tool_timeout_sec: NaN },
  { command: "node", tool_timeout_sec: Infinity },
  { command: "node", mcp_tool_pinning: "sometimes" },
  { command: "node", tools: { a: { approval_mode: "never" } } },
  { command: "node", tools: { a: { other: 1 } } },
  { command: "node", sampling_max_tokens: 0 },
  { command: "node", sandbox: "full" },
  { command: "node", sandbox_network: true },
  { command: "node", sandbox: "read-only", sandbox_writable: [""] },
  { command: "node", colour: "blue" },
  { command: "node", url: "https://example.com" },
  { command: "node", bearer_token: "x" },
  { url: "https://example.com", args: ["a"] },
  { url: "https://example.com", sandbox: "read-only" },
  { url: "https://example.com", oauth: { client_id: 1 } },
  { args: ["a"] },
  {},
];

Deno.test("plainlyValid() says yes to the common server tables, which the schema accepts too", () => {
  for (const table of VALID) {
    assert.equal(plainlyValid(table), true, JSON.stringify(table));
    assert.equal(mcpServerSchema().safeParse(table).success, true, JSON.stringify(table));
    const parsed = parseConfigTable({ mcp_servers: { s: table } });
    assert.equal(parsed.success, true);
    assert.deepEqual(parsed.success && parsed.data.mcp_servers?.s, table);
  }
});

Deno.test("plainlyValid() says no to every table the schema rejects, so zod still words each error", () => {
  for (const table of INVALID) {
    assert.equal(mcpServerSchema().safeParse(table).success, false, JSON.stringify(table));
    assert.equal(plainlyValid(table), false, JSON.stringify(table));
    assert.equal(parseConfigTable({ mcp_servers: { s: table } }).success, false, JSON.stringify(table));
  }
});
