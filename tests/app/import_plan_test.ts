/**
 * Issue 14 item 9: `trellis import codex|claude` — which entries become Trellis config, how a
 * Claude Code `${VAR}` is carried (only as a variable's name), and that nothing of Trellis's is
 * overwritten without `force`.
 */
import assert from "node:assert/strict";
import { type ImportSources, planImport } from "../../lib/app/mod.ts";
import { importClaudeEntry, importCodexEntry } from "../../lib/mcp/mod.ts";

Deno.test("importClaudeEntry() maps Claude Code's keys and moves ${VAR}s only where config.toml names a variable", () => {
  assert.deepStrictEqual(
    importClaudeEntry("remote", {
      type: "http",
      url: "https://mcp.example.com/mcp",
      headers: { Authorization: "Bearer ${EXAMPLE_TOKEN}", "X-Key": "${EXAMPLE_KEY}", "X-Team": "core" },
      note: "shared with the team",
    }),
    {
      ok: true,
      table: {
        url: "https://mcp.example.com/mcp",
        http_headers: { "X-Team": "core" },
        bearer_token_env_var: "EXAMPLE_TOKEN",
        env_http_headers: { "X-Key": "EXAMPLE_KEY" },
      },
      notes: ["not copied (Trellis does not use them): note"],
    },
  );
  assert.deepStrictEqual(
    importClaudeEntry("local", {
      command: "npx",
      args: ["-y", "pkg"],
      env: { GITHUB_TOKEN: "${GITHUB_TOKEN}", MODE: "x" },
    }),
    {
      ok: true,
      table: { command: "npx", args: ["-y", "pkg"], env: { MODE: "x" }, env_vars: ["GITHUB_TOKEN"] },
      notes: [],
    },
  );
});

Deno.test("importClaudeEntry() keeps out what config.toml cannot say: other ${VAR}s, SSE, bad transports", () => {
  const reason = (entry: unknown) => {
    const r = importClaudeEntry("x", entry);
    return r.ok ? null : r.reason;
  };
  assert.match(reason({ command: "node", args: ["s.js", "${PORT:-3000}"] })!, /^args\[1\] uses a \$\{VAR\}/);
  assert.match(reason({ command: "node", env: { TOKEN: "${OTHER}" } })!, /^env\.TOKEN uses/);
  assert.match(reason({ url: "https://h/${TENANT}/mcp" })!, /^url uses/);
  assert.match(reason({ type: "sse", url: "https://h/sse" })!, /SSE/);
  assert.match(reason({ command: "x", url: "y" })!, /url is not supported for stdio/);
  assert.match(reason("nope")!, /not an object/);
});

Deno.test("importCodexEntry() copies Trellis's (Codex's) keys, drops others with a note, and refuses what the schema refuses", () => {
  assert.deepStrictEqual(
    importCodexEntry("docs", {
      command: "npx",
      args: ["a"],
      startup_timeout_sec: 20,
      name: "legacy",
      future_key: 1,
    }),
    {
      ok: true,
      table: { command: "npx", args: ["a"], startup_timeout_sec: 20 },
      notes: ["not copied (Trellis does not use them): name, future_key"],
    },
  );
  const bad = importCodexEntry("docs", { command: "npx", url: "https://x" });
  assert.deepStrictEqual(bad.ok, false);
  assert.deepStrictEqual(importCodexEntry("bad name", { command: "x" }), {
    ok: false,
    reason: "invalid server name (expected [A-Za-z0-9_-]+)",
  });
});

const sources = (extra: Partial<ImportSources> = {}): ImportSources => ({
  source: "codex",
  servers: [
    { name: "docs", entry: { command: "npx", args: ["docs"] }, from: "/c/config.toml" },
    { name: "mine", entry: { command: "theirs" }, from: "/c/config.toml" },
  ],
  kept: [],
  hooks: [{
    from: "/c/hooks.json",
    events: {
      Stop: [{ hooks: [{ type: "command", command: "echo stop" }] }],
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: "echo same" }] },
        { matcher: "Bash", hooks: [{ type: "command", command: "echo new" }] },
      ],
      state: { "k": { trusted_hash: "sha256:x" } },
    },
  }],
  settings: [],
  notTaken: null,
  switches: ["compat.codex_config"],
  diagnostics: [],
  ...extra,
});

const doc = {
  mcp_servers: { mine: { command: "ours" } },
  hooks: { PreToolUse: [{ hooks: [{ command: "echo same", type: "command" }], matcher: "Bash" }] },
};

Deno.test("planImport() adds what is new and skips, naming why, what Trellis's config already has", () => {
  const plan = planImport(sources(), doc);
  assert.deepStrictEqual(plan.items.map((i) => [i.key, i.action, i.reason ?? null]), [
    ["mcp_servers.docs", "add", null],
    ["mcp_servers.mine", "skip", "Trellis's config already has this server (--force replaces it)"],
    ["hooks.PreToolUse", "skip", "Trellis's config already has PreToolUse hooks (--force appends these 1)"],
    ["hooks.Stop", "add", null],
  ]);
  assert.deepStrictEqual(plan.edits, [
    { op: "set", path: ["mcp_servers", "docs", "command"], value: "npx" },
    { op: "set", path: ["mcp_servers", "docs", "args"], value: ["docs"] },
    { op: "set", path: ["hooks", "Stop"], value: [{ hooks: [{ type: "command", command: "echo stop" }] }] },
  ]);
  assert.deepStrictEqual(Object.keys(plan.written), ["mcp_servers", "hooks"]);
});

Deno.test("planImport({force}) replaces a server of the same name and appends only the hook groups Trellis lacks", () => {
  const plan = planImport(sources(), doc, { force: true });
  assert.deepStrictEqual(plan.items.map((i) => [i.key, i.action]), [
    ["mcp_servers.docs", "add"],
    ["mcp_servers.mine", "replace"],
    ["hooks.Stop", "add"],
    ["hooks.PreToolUse", "append"],
  ]);
  assert.deepStrictEqual(plan.edits.slice(2, 4), [
    { op: "remove", path: ["mcp_servers", "mine"], prune: undefined },
    { op: "set", path: ["mcp_servers", "mine", "command"], value: "theirs" },
  ]);
  assert.deepStrictEqual(plan.edits.find((e) => e.path.join(".") === "hooks.PreToolUse"), {
    op: "set",
    path: ["hooks", "PreToolUse"],
    value: [
      { hooks: [{ command: "echo same", type: "command" }], matcher: "Bash" },
      { matcher: "Bash", hooks: [{ type: "command", command: "echo new" }] },
    ],
  });
});

Deno.test("planImport() says hooks already present are skipped, and names entries it leaves in place", () => {
  const plan = planImport(
    sources({
      servers: [],
      hooks: [{ from: "/c/hooks.json", events: { PreToolUse: [doc.hooks.PreToolUse[0]] } }],
      kept: [{ key: "mcp_servers.local", from: '/h/.claude.json (projects["/p"])', reason: "per-project" }],
    }),
    doc,
    { force: true },
  );
  assert.deepStrictEqual(plan.items.map((i) => [i.key, i.action, i.reason]), [
    ["mcp_servers.local", "skip", "per-project"],
    ["hooks.PreToolUse", "skip", "Trellis's config already has these hooks"],
  ]);
  assert.deepStrictEqual(plan.edits, []);
});

Deno.test("planImport() copies Codex's model keys Trellis's config lacks, as its schema takes them (#21 item 8)", () => {
  const plan = planImport(
    sources({
      servers: [],
      hooks: [],
      settings: [
        { key: ["model"], value: "o3", from: "/c/config.toml" },
        { key: ["model_reasoning_effort"], value: "high", from: "/c/config.toml" },
        { key: ["model_context_window"], value: "big", from: "/c/config.toml" },
        {
          key: ["model_providers", "az"],
          value: { base_url: "https://a", env_key: "AZ", requires_openai_auth: false },
          from: "/c/config.toml",
        },
      ],
    }),
    { model_reasoning_effort: "low" },
  );
  assert.deepStrictEqual(plan.items.map((i) => [i.key, i.action, i.reason?.slice(0, 40) ?? null, i.notes]), [
    ["model", "add", null, []],
    ["model_reasoning_effort", "skip", "Trellis's config already sets it (--forc", []],
    ["model_context_window", "skip", "Invalid config the Codex config: model_c", []],
    ["model_providers.az", "add", null, [
      "leaves out model_providers.az.requires_openai_auth (Trellis does not use it)",
    ]],
  ]);
  assert.deepStrictEqual(plan.edits, [
    { op: "set", path: ["model"], value: "o3" },
    { op: "set", path: ["model_providers", "az"], value: { base_url: "https://a", env_key: "AZ" } },
  ]);
  const forced = planImport(
    sources({
      servers: [],
      hooks: [],
      settings: [{ key: ["model_reasoning_effort"], value: "high", from: "/c" }],
    }),
    { model_reasoning_effort: "low" },
    { force: true },
  );
  assert.deepStrictEqual(forced.items.map((i) => i.action), ["replace"]);
});
