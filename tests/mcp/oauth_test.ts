import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { platform, runCommand } from "../../lib/platform/mod.ts";
import { authStatus, CredentialStore, loginServer, serverConfigFromTable } from "../../lib/mcp/mod.ts";
import { runContext, startRuntime } from "./_helpers.ts";

/** A tiny OAuth AS (RFC 8414 + DCR + PKCE) and a protected MCP server (RFC 9728) on one port. */
async function startProtectedServer(options: { resource?: string } = {}) {
  const seen = { authorize: 0, tokens: [] as string[] };
  const server = await platform.serveHttp(async (request) => {
    const url = new URL(request.url);
    const base = url.origin;
    const json = (body: unknown, status = 200) => Response.json(body, { status });
    switch (url.pathname) {
      case "/.well-known/oauth-protected-resource/mcp":
        return json({ resource: options.resource ?? `${base}/mcp`, authorization_servers: [base] });
      case "/.well-known/oauth-authorization-server":
        return json({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      case "/register":
        return json({ ...(await request.json()), client_id: "client-1" }, 201);
      case "/authorize": {
        seen.authorize++;
        assert.deepStrictEqual(url.searchParams.get("code_challenge_method"), "S256");
        const back = new URL(url.searchParams.get("redirect_uri")!);
        back.searchParams.set("code", "code-1");
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        return new Response(null, { status: 302, headers: { location: back.href } });
      }
      case "/token": {
        const form = new URLSearchParams(await request.text());
        seen.tokens.push(`${form.get("grant_type")} ${form.get("resource")}`);
        return json({ access_token: "secret-token-1", token_type: "Bearer", refresh_token: "r-1" });
      }
      case "/mcp": {
        if (request.headers.get("authorization") !== "Bearer secret-token-1") {
          return new Response("unauthorized", {
            status: 401,
            headers: {
              "www-authenticate":
                `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
            },
          });
        }
        const mcp = new McpServer({ name: "protected", version: "1" });
        mcp.registerTool("whoami", { description: "Says who" }, () => ({
          content: [{ type: "text", text: "authorized" }],
        }));
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        await mcp.connect(transport);
        return transport.handleRequest(request);
      }
    }
    return new Response("not found", { status: 404 });
  }, { hostname: "127.0.0.1", port: 0 });
  return { url: `http://127.0.0.1:${server.port}/mcp`, seen, close: () => server.close() };
}

/** Plays the browser: follows the authorization URL to the loopback redirect. */
async function browser(url: URL): Promise<void> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  const back = await fetch(response.headers.get("location")!);
  await back.body?.cancel();
}

Deno.test("loginServer() stores tokens 0600 and the runtime calls the protected server with them (MCP-17)", async () => {
  const fixture = await startProtectedServer();
  const home = await platform.fs.makeTempDir("trellis-oauth-");
  const config = serverConfigFromTable("prot", { url: fixture.url });
  const store = CredentialStore.forHome(platform.fs, home);
  try {
    assert.deepStrictEqual(await authStatus(config, store), "not_logged_in");
    await loginServer(config, { platform, home, show: browser });
    assert.deepStrictEqual(fixture.seen, { authorize: 1, tokens: [`authorization_code ${fixture.url}`] });
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
    assert.deepStrictEqual(fixture.seen, { authorize: 0, tokens: [] });
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

const BINARY = new URL("../../dist/trellis", import.meta.url).pathname;

Deno.test({
  name:
    "dist/trellis mcp probe --oauth-headless --call-all authorizes without a browser and calls every tool",
  ignore: !(await platform.fs.stat(BINARY)),
  fn: async () => {
    const fixture = await startProtectedServer();
    try {
      const result = await runCommand(platform, {
        cmd: [BINARY, "mcp", "probe", "--call-all", "--oauth-headless", fixture.url],
        env: { PATH: platform.env("PATH") ?? "", HOME: await platform.fs.makeTempDir("trellis-probe-") },
        timeoutMs: 30_000,
      });
      assert.deepStrictEqual({ code: result.code, stdout: result.stdout }, {
        code: 0,
        stdout: 'server: protected 1\ncapabilities: {"tools":{"listChanged":true}}\ncall whoami: ok\n',
      });
      assert.deepStrictEqual(fixture.seen.authorize, 1);
    } finally {
      await fixture.close();
    }
  },
});
