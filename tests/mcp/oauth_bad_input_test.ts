import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { CredentialStore, loginServer, serverConfigFromTable } from "../../lib/mcp/mod.ts";
import { runContext, startRuntime } from "./_helpers.ts";
import { browser, type ProtectedServerOptions, startProtectedServer } from "./_oauth_fixture.ts";

/** Logs in to a fresh fixture; the error comes back with the fixture's address as `<base>`. */
async function failedLogin(options: ProtectedServerOptions) {
  const fixture = await startProtectedServer(options);
  const home = await platform.fs.makeTempDir("trellis-oauth-bad-");
  try {
    const config = serverConfigFromTable("prot", { url: fixture.url });
    const error: Error = await loginServer(config, { platform, home, show: browser }).then(
      () => assert.fail("login should fail"),
      (e) => e,
    );
    const stored = await CredentialStore.forHome(platform.fs, home).load("prot", fixture.url);
    return {
      message: error.message.replaceAll(new URL(fixture.url).origin, "<base>"),
      authorize: fixture.seen.authorize,
      scopes: fixture.seen.scopes,
      tokensStored: stored.tokens !== undefined,
    };
  } finally {
    await fixture.close();
    await platform.fs.remove(home, { recursive: true });
  }
}

async function closedPort(): Promise<number> {
  const server = await platform.serveHttp(() => new Response(), { hostname: "127.0.0.1", port: 0 });
  await server.close();
  return server.port;
}

Deno.test("loginServer() fails clearly, before authorizing, when the authorization server is unreachable (MCP-17)", async () => {
  const result = await failedLogin({ authorizationServer: `http://127.0.0.1:${await closedPort()}` });
  assert.match(result.message, /^Cannot authorize "<base>\/mcp": \S/);
  assert.deepStrictEqual({ ...result, message: "" }, {
    message: "",
    authorize: 0,
    scopes: [],
    tokensStored: false,
  });
});

Deno.test("loginServer() rejects invalid protected-resource metadata the server pointed at (MCP-17, RFC 9728)", async () => {
  assert.deepStrictEqual(await failedLogin({ garbage: "resource-metadata" }), {
    message: 'Cannot authorize "<base>/mcp": invalid protected-resource metadata at ' +
      "<base>/.well-known/oauth-protected-resource/mcp (resource, authorization_servers)",
    authorize: 0,
    scopes: [],
    tokensStored: false,
  });
});

Deno.test("loginServer() rejects invalid authorization-server metadata before authorizing (MCP-17, RFC 8414)", async () => {
  const result = await failedLogin({ garbage: "server-metadata" });
  assert.match(
    result.message,
    /^Cannot authorize "<base>\/mcp": an OAuth metadata document or response is invalid \(/,
  );
  assert.match(result.message, /authorization_endpoint: /);
  assert.deepStrictEqual({ ...result, message: "" }, {
    message: "",
    authorize: 0,
    scopes: [],
    tokensStored: false,
  });
});

Deno.test("loginServer() reports a token endpoint that answers garbage without quoting it (MCP-17)", async () => {
  assert.deepStrictEqual(await failedLogin({ garbage: "token" }), {
    message: 'Cannot authorize "<base>/mcp": an OAuth endpoint answered with something that is not JSON',
    authorize: 1,
    scopes: [null],
    tokensStored: false,
  });
});

Deno.test("loginServer() stops stepping up on insufficient_scope after 3 authorizations (MCP-17)", async () => {
  const result = await failedLogin({ alwaysStepUp: true });
  assert.deepStrictEqual({ ...result, tokensStored: undefined }, {
    message:
      'Cannot authorize "<base>/mcp": the server still answers 403 insufficient_scope after 3 authorization attempts',
    authorize: 3,
    scopes: [null, "admin", "admin"],
    tokensStored: undefined,
  });
});

async function loggedIn(options: ProtectedServerOptions = {}) {
  const fixture = await startProtectedServer(options);
  const config = serverConfigFromTable("prot", { url: fixture.url });
  const home = await platform.fs.makeTempDir("trellis-oauth-bad-");
  await loginServer(config, { platform, home, show: browser });
  return { fixture, config, home };
}

Deno.test("the runtime refreshes an expired access token with the stored refresh token (MCP-17)", async () => {
  const { fixture, config, home } = await loggedIn();
  fixture.state.valid = "secret-token-2"; // token 1 expired; only the refresh grant issues token 2
  const { runtime, events } = await startRuntime([config], { extra: { home } });
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const step = runtime.captureStep();
    const tool = step.tools.find((t) => t.name === "mcp__prot__whoami")!;
    assert.deepStrictEqual((await tool.run({}, runContext().ctx)).output, "authorized");
    step.release();
    assert.deepStrictEqual(fixture.seen.tokens, [
      `authorization_code ${fixture.url}`,
      `refresh_token ${fixture.url}`,
    ]);
    assert.deepStrictEqual(fixture.seen.authorize, 1, "a refresh needs no new authorization");
    const stored = await CredentialStore.forHome(platform.fs, home).load("prot", fixture.url);
    assert.deepStrictEqual(stored.tokens?.access_token, "secret-token-2");
    assert.ok(!/secret-/.test(JSON.stringify(events)), "no token in any event");
  } finally {
    await runtime.shutdown();
    await fixture.close();
  }
});

Deno.test("the runtime asks for a new login, without secrets, when a token refresh answers garbage (MCP-17)", async () => {
  const options: ProtectedServerOptions = {};
  const { fixture, config, home } = await loggedIn(options);
  fixture.state.valid = "secret-token-2";
  options.garbage = "token";
  const { runtime, events } = await startRuntime([config], { extra: { home } });
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const failed = events.find((e) => e.type === "mcp.server_status" && e.status === "failed");
    // The SDK treats a refresh that fails with no OAuth error as "authorize again", which needs a person.
    assert.match(
      JSON.stringify(failed),
      /Cannot authorize MCP server \\"prot\\": not logged in; run `trellis mcp login prot`/,
    );
    assert.deepStrictEqual(fixture.seen.tokens.at(-1), `refresh_token ${fixture.url}`);
    assert.ok(!/secret-/.test(JSON.stringify(events)), "no token in any event");
    const step = runtime.captureStep(); // the session goes on without the server
    assert.deepStrictEqual(step.tools.filter((t) => t.name.startsWith("mcp__prot__")), []);
    step.release();
  } finally {
    await runtime.shutdown();
    await fixture.close();
  }
});
