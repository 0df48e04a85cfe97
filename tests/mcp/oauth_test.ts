import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { authStatus, CredentialStore, loginServer, serverConfigFromTable } from "../../lib/mcp/mod.ts";
import { runContext, startRuntime } from "./_helpers.ts";
import { browser, startProtectedServer } from "./_oauth_fixture.ts";

Deno.test("loginServer() stores tokens 0600 and the runtime calls the protected server with them (MCP-17)", async () => {
  const fixture = await startProtectedServer();
  const home = await platform.fs.makeTempDir("trellis-oauth-");
  const config = serverConfigFromTable("prot", { url: fixture.url });
  const store = CredentialStore.forHome(platform.fs, home);
  try {
    assert.deepStrictEqual(await authStatus(config, store), "not_logged_in");
    await loginServer(config, { platform, home, show: browser });
    assert.deepStrictEqual(fixture.seen, {
      authorize: 1,
      scopes: [null],
      tokens: [`authorization_code ${fixture.url}`],
    });
    assert.deepStrictEqual((await platform.fs.stat(store.file("prot")))!.mode & 0o777, 0o600);
    assert.deepStrictEqual(await authStatus(config, store), "oauth");

    const { runtime, events } = await startRuntime([config], { extra: { home } });
    try {
      await runtime.awaitStartup({ graceMs: 10_000 });
      const step = runtime.captureStep();
      const tool = step.tools.find((t) => t.name === "mcp__prot__whoami")!;
      assert.deepStrictEqual((await tool.run({}, runContext().ctx)).output, "authorized");
      assert.ok(!JSON.stringify(events).includes("secret-token-1"), "no token in any event");
      step.release();
    } finally {
      await runtime.shutdown();
    }
    assert.deepStrictEqual(await store.remove("prot"), true);
    assert.deepStrictEqual(await authStatus(config, store), "not_logged_in");
  } finally {
    await fixture.close();
  }
});

Deno.test("loginServer() refuses a resource that does not match the server URL before authorizing (RFC 8707)", async () => {
  const fixture = await startProtectedServer({ resource: "https://evil.example.com/mcp" });
  const home = await platform.fs.makeTempDir("trellis-oauth-");
  try {
    await assert.rejects(
      loginServer(serverConfigFromTable("prot", { url: fixture.url }), { platform, home, show: browser }),
      /does not match/,
    );
    assert.deepStrictEqual(fixture.seen, { authorize: 0, scopes: [], tokens: [] });
  } finally {
    await fixture.close();
  }
});

Deno.test("the runtime reports a not-logged-in OAuth server as failed with a login hint (MCP-17)", async () => {
  const fixture = await startProtectedServer();
  const home = await platform.fs.makeTempDir("trellis-oauth-");
  const { runtime, events } = await startRuntime([serverConfigFromTable("prot", { url: fixture.url })], {
    extra: { home },
  });
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const failed = events.find((e) => e.type === "mcp.server_status" && e.status === "failed");
    assert.match(JSON.stringify(failed), /not logged in; run `trellis mcp login prot`/);
    assert.deepStrictEqual(fixture.seen.authorize, 0);
  } finally {
    await runtime.shutdown();
    await fixture.close();
  }
});
