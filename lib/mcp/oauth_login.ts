import type { Platform } from "../platform/mod.ts";
import { TrellisError, UsageError } from "../shared/mod.ts";
import type { FetchLike } from "./_sdk.ts";
import { createSdkClient, createTransport } from "./client_factory.ts";
import { CredentialStore } from "./credential_store.ts";
import { oauthFetch } from "./oauth_fetch.ts";
import { codeFromRedirect, TrellisOAuthProvider } from "./oauth_provider.ts";
import type { McpServerConfig } from "./server_config.ts";

/** Placeholder redirect for a runtime that can only refresh (it never authorizes). */
const NO_REDIRECT = "http://127.0.0.1/callback";

/** `trellis mcp list` auth status (Codex's McpAuthStatus). */
export type McpAuthStatus = "unsupported" | "not_logged_in" | "bearer_token" | "oauth";

/** MCP-17 status of one server: OAuth only applies to streamable HTTP without a bearer variable. */
export async function authStatus(server: McpServerConfig, store: CredentialStore): Promise<McpAuthStatus> {
  const t = server.transport;
  if (t.type !== "streamable_http") return "unsupported";
  if (t.bearerTokenEnvVar) return "bearer_token";
  const stored = await store.load(server.name, t.url);
  return stored.tokens ? "oauth" : "not_logged_in";
}

/** Every server's status, computed concurrently (MCP-17). */
export function authStatuses(servers: McpServerConfig[], store: CredentialStore): Promise<McpAuthStatus[]> {
  return Promise.all(servers.map((s) => authStatus(s, store)));
}

/** The runtime's `oauthFetch` callback: stored tokens, refreshed when the server says 401. */
export function storedOAuthFetch(store: CredentialStore) {
  return async (server: McpServerConfig): Promise<FetchLike | undefined> => {
    if (server.transport.type !== "streamable_http") return undefined;
    const url = server.transport.url;
    const provider = new TrellisOAuthProvider({
      server: server.name,
      redirectUrl: NO_REDIRECT,
      initial: await store.load(server.name, url),
      save: (state) => store.save(server.name, state),
      ...(server.oauthClientId ? { client: { client_id: server.oauthClientId } } : {}),
    });
    return oauthFetch(provider, { serverUrl: url, scope: scopeParam(server.scopes) });
  };
}

export function scopeParam(scopes: string[]): string | undefined {
  return scopes.length > 0 ? scopes.join(" ") : undefined;
}

export interface LoginOptions {
  platform: Platform;
  home: string;
  /** MCP-17: explicit scopes beat the configured ones. */
  scopes?: string[];
  /** Shows the person the authorization URL (and maybe opens a browser). */
  show(url: URL): void | Promise<void>;
  /** Loopback port for the redirect; default 0 (any free port). */
  port?: number;
}

/**
 * `trellis mcp login NAME`: listens on a loopback redirect, sends the person to the authorization
 * URL, exchanges the code and stores the tokens (0600, atomic). Nothing secret is printed.
 */
export async function loginServer(server: McpServerConfig, options: LoginOptions): Promise<void> {
  const t = server.transport;
  if (t.type !== "streamable_http" || t.bearerTokenEnvVar) {
    throw new UsageError(
      `Cannot log in to MCP server "${server.name}": OAuth applies only to streamable HTTP servers without bearer_token_env_var`,
      { server: server.name },
    );
  }
  const store = CredentialStore.forHome(options.platform.fs, options.home);
  // Each authorization round (a scope retry is a second one) waits for its own redirect.
  let waiting: { resolve(code: string): void; reject(error: Error): void } | undefined;
  const listener = await options.platform.serveHttp((request) => {
    let ok = false;
    try {
      waiting?.resolve(codeFromRedirect(new URL(request.url)));
      ok = true;
    } catch (error) {
      waiting?.reject(error as Error);
    }
    waiting = undefined;
    // `connection: close`: a browser's keep-alive socket must not hold the listener open after login.
    return new Response(ok ? "Trellis is logged in. You can close this tab." : "Authorization failed.", {
      headers: { connection: "close" },
    });
  }, { hostname: "127.0.0.1", port: options.port ?? 0 });
  const authorize = async (url: URL): Promise<string> => {
    const code = new Promise<string>((resolve, reject) => waiting = { resolve, reject });
    // The redirect may fail while `show` is still running: the rejection is awaited just below.
    code.catch(() => {});
    await options.show(url);
    return await code;
  };
  try {
    const provider = new TrellisOAuthProvider({
      server: server.name,
      redirectUrl: `http://127.0.0.1:${listener.port}/callback`,
      initial: { url: t.url },
      save: (state) => store.save(server.name, state),
      ...(server.oauthClientId ? { client: { client_id: server.oauthClientId } } : {}),
      authorize,
    });
    const scope = scopeParam(options.scopes?.length ? options.scopes : server.scopes);
    const fetchFn = oauthFetch(provider, { serverUrl: t.url, scope });
    // One authenticated initialize proves the tokens work.
    const client = await createSdkClient(server, {
      elicit: () => Promise.resolve({ action: "decline" }),
      warn: () => {},
      roots: () => [],
      toolsChanged: () => {},
    });
    const ctx = { platform: options.platform, cwd: options.home, home: options.home, warn: () => {} };
    await client.connect(
      await createTransport(server, { ...ctx, oauthFetch: () => Promise.resolve(fetchFn) }),
    );
    await client.close();
    if (!provider.tokens()) {
      throw new TrellisError(
        "mcp_auth",
        `"${server.name}" accepted the connection without asking to log in`,
        {
          server: server.name,
        },
      );
    }
  } finally {
    await listener.close();
  }
}
