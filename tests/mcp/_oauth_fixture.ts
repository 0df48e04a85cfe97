// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { platform } from "../../lib/platform/mod.ts";

export interface ProtectedServerOptions {
  /** The RFC 9728 `resource` (default: the server URL). */
  resource?: string;
  /** RFC 9728 `scopes_supported`: the scopes a client discovers. */
  scopesSupported?: string[];
  /** Scopes the authorization endpoint rejects with `invalid_scope`. */
  rejectScopes?: string[];
  /** `authorization_servers[0]` (default: this server). */
  authorizationServer?: string;
  /** Serve garbage instead of a metadata document. */
  garbage?: "resource-metadata" | "server-metadata" | "token";
  /** Every authorized MCP request gets 403 insufficient_scope. */
  alwaysStepUp?: boolean;
}

/** A tiny OAuth AS (RFC 8414 + DCR + PKCE + refresh) and a protected MCP server (RFC 9728) on one port. */
export async function startProtectedServer(options: ProtectedServerOptions = {}) {
  const seen = { authorize: 0, scopes: [] as (string | null)[], tokens: [] as string[] };
  /** The one access token /mcp accepts; a test "expires" it by changing this. */
  const state = { valid: "secret-token-1" };
  // Every per-request MCP server: closing them ends their SSE streams, which the HTTP server's
  // graceful shutdown would otherwise wait for (a stream that never writes never sees the client go).
  const open = new Set<McpServer>();
  const server = await platform.serveHttp(async (request) => {
    const url = new URL(request.url);
    const base = url.origin;
    const json = (body: unknown, status = 200) => Response.json(body, { status });
    switch (url.pathname) {
      case "/.well-known/oauth-protected-resource/mcp":
        if (options.garbage === "resource-metadata") {
          return json({ resource: 42, authorization_servers: "x" });
        }
        return json({
          resource: options.resource ?? `${base}/mcp`,
          authorization_servers: [options.authorizationServer ?? base],
          ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
        });
      case "/.well-known/oauth-authorization-server":
        if (options.garbage === "server-metadata") return json({ issuer: base, authorization_endpoint: 7 });
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
      case "/authorize":
        return authorizeEndpoint(url, options, seen);
      case "/token": {
        const form = new URLSearchParams(await request.text());
        const grant = form.get("grant_type");
        seen.tokens.push(`${grant} ${form.get("resource")}`);
        // Broken JSON that carries a token: the error must not quote it.
        if (options.garbage === "token") return new Response('{"access_token":"secret-token-9",');
        const access = grant === "refresh_token" ? "secret-token-2" : "secret-token-1";
        return json({ access_token: access, token_type: "Bearer", refresh_token: "secret-refresh-1" });
      }
      case "/mcp":
        return await mcpEndpoint(request, base, state.valid, open, options.alwaysStepUp);
    }
    return new Response("not found", { status: 404 });
  }, { hostname: "127.0.0.1", port: 0 });
  const close = async () => {
    await Promise.all([...open].map((mcp) => mcp.close().catch(() => {})));
    await server.close();
  };
  return { url: `http://127.0.0.1:${server.port}/mcp`, seen, state, close };
}

function authorizeEndpoint(
  url: URL,
  options: ProtectedServerOptions,
  seen: { authorize: number; scopes: (string | null)[] },
): Response {
  seen.authorize++;
  const scope = url.searchParams.get("scope");
  seen.scopes.push(scope);
  const back = new URL(url.searchParams.get("redirect_uri")!);
  const rejected = scope?.split(" ").some((s) => options.rejectScopes?.includes(s));
  if (url.searchParams.get("code_challenge_method") !== "S256") {
    back.searchParams.set("error", "invalid_request");
  } else if (rejected) back.searchParams.set("error", "invalid_scope");
  else back.searchParams.set("code", "code-1");
  back.searchParams.set("state", url.searchParams.get("state") ?? "");
  return new Response(null, { status: 302, headers: { location: back.href } });
}

async function mcpEndpoint(
  request: Request,
  base: string,
  valid: string,
  open: Set<McpServer>,
  stepUp?: boolean,
): Promise<Response> {
  const metadata = `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
  if (request.headers.get("authorization") !== `Bearer ${valid}`) {
    return new Response("unauthorized", {
      status: 401,
      headers: { "www-authenticate": `Bearer ${metadata}` },
    });
  }
  if (stepUp) {
    return new Response("forbidden", {
      status: 403,
      headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="admin", ${metadata}` },
    });
  }
  const mcp = new McpServer({ name: "protected", version: "1" });
  open.add(mcp);
  mcp.registerTool("whoami", { description: "Says who" }, () => ({
    content: [{ type: "text", text: "authorized" }],
  }));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await mcp.connect(transport);
  return transport.handleRequest(request);
}

/** Plays the browser: follows the authorization URL to the loopback redirect. */
export async function browser(url: URL): Promise<void> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  const back = await fetch(response.headers.get("location")!);
  await back.body?.cancel();
}
