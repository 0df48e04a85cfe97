import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { loginServer, serverConfigFromTable } from "../../lib/mcp/mod.ts";
import { browser, type ProtectedServerOptions, startProtectedServer } from "./_oauth_fixture.ts";

/** Logs in to a fresh fixture and returns the scope each authorization request carried. */
async function login(
  fixtureOptions: ProtectedServerOptions,
  table: { scopes?: string[] } = {},
  explicit?: string[],
): Promise<{ scopes: (string | null)[]; error?: string }> {
  const fixture = await startProtectedServer(fixtureOptions);
  const home = await platform.fs.makeTempDir("trellis-oauth-scopes-");
  try {
    const config = serverConfigFromTable("prot", { url: fixture.url, ...table });
    const error = await loginServer(config, { platform, home, scopes: explicit, show: browser }).then(
      () => undefined,
      (e: Error) => e.message.replaceAll(fixture.url, "<url>"),
    );
    return { scopes: fixture.seen.scopes, ...(error ? { error } : {}) };
  } finally {
    await fixture.close();
    await platform.fs.remove(home, { recursive: true });
  }
}

Deno.test("loginServer() prefers explicit scopes over configured and discovered ones (MCP-17)", async () => {
  assert.deepStrictEqual(await login({ scopesSupported: ["read"] }, { scopes: ["write"] }, ["cli"]), {
    scopes: ["cli"],
  });
});

Deno.test("loginServer() prefers configured scopes over discovered ones when no scope is explicit (MCP-17)", async () => {
  assert.deepStrictEqual(await login({ scopesSupported: ["read"] }, { scopes: ["write", "x"] }), {
    scopes: ["write x"],
  });
});

Deno.test("loginServer() asks for the discovered scopes when none are explicit or configured (MCP-17)", async () => {
  assert.deepStrictEqual(await login({ scopesSupported: ["read", "list"] }), { scopes: ["read list"] });
});

Deno.test("loginServer() retries once with no scopes when the provider rejects discovered scopes (MCP-17)", async () => {
  assert.deepStrictEqual(await login({ scopesSupported: ["read", "admin"], rejectScopes: ["admin"] }), {
    scopes: ["read admin", null],
  });
});

Deno.test("loginServer() never retries without scopes when configured scopes are rejected (MCP-17)", async () => {
  assert.deepStrictEqual(
    await login({ scopesSupported: ["read"], rejectScopes: ["admin"] }, { scopes: ["admin"] }),
    {
      scopes: ["admin"],
      error: 'Cannot authorize "<url>": the authorization server answered invalid_scope',
    },
  );
});

Deno.test("loginServer() never retries without scopes when explicit scopes are rejected (MCP-17)", async () => {
  assert.deepStrictEqual(await login({ rejectScopes: ["admin"] }, {}, ["admin"]), {
    scopes: ["admin"],
    error: 'Cannot authorize "<url>": the authorization server answered invalid_scope',
  });
});
