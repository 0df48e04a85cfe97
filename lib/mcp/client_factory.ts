import * as path from "node:path";
import {
  type Client,
  type CreateMessageResult,
  type ElicitResult,
  type FetchLike,
  loadSdk,
  type Root,
  type Transport,
} from "./_sdk.ts";
import { childEnv, type Platform } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import type { ElicitationRequest, ElicitationResponse } from "./elicitation.ts";
import type { SamplingRequest, SamplingVerdict } from "./sampling.ts";
import type { McpServerConfig } from "./server_config.ts";
import { PlatformStdioTransport } from "./stdio_transport.ts";

export const CLIENT_INFO = { name: "trellis", version: "0.1.0" };

/** What the client needs from the runtime while it is connected. */
export interface ClientCallbacks {
  elicit(request: Omit<ElicitationRequest, "id">, signal: AbortSignal): Promise<ElicitationResponse>;
  warn(message: string): void;
  /** Undefined: the session cannot sample, so the capability is not advertised. */
  sample?(request: SamplingRequest, signal: AbortSignal): Promise<SamplingVerdict>;
  /** The workspace roots answered to `roots/list`. */
  roots(): Root[];
  /** A `notifications/tools/list_changed` arrived. */
  toolsChanged(): void;
}

/** JSON-RPC code for "the user rejected the sampling request" (MCP sampling spec). */
const USER_REJECTED = -1;

/**
 * The one place that builds SDK clients: capabilities and server→client request handlers live
 * here (elicitation, sampling, roots, list_changed; OAuth attaches in createTransport).
 */
export async function createSdkClient(server: McpServerConfig, callbacks: ClientCallbacks): Promise<Client> {
  const sdk = await loadSdk();
  const sampling = callbacks.sample && server.sampling !== "deny" ? callbacks.sample : undefined;
  const client = new sdk.Client(CLIENT_INFO, {
    capabilities: {
      elicitation: { form: {}, url: {} },
      roots: { listChanged: true },
      ...(sampling ? { sampling: {} } : {}),
    },
  });
  client.setRequestHandler(sdk.ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
    const params = request.params as Record<string, unknown>;
    const mode = params.mode === "url" ? "url" : "form";
    const response = await callbacks.elicit({
      server: server.name,
      mode,
      message: String(params.message ?? ""),
      schema: mode === "form" ? params.requestedSchema as Record<string, unknown> : undefined,
      url: mode === "url" ? String(params.url) : undefined,
    }, extra.signal);
    return response.action === "accept" && mode === "form"
      ? { action: "accept", content: (response.content ?? {}) as ElicitResult["content"] }
      : { action: response.action };
  });
  client.setRequestHandler(sdk.ListRootsRequestSchema, () => ({ roots: callbacks.roots() }));
  client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => callbacks.toolsChanged());
  if (sampling) {
    client.setRequestHandler(sdk.CreateMessageRequestSchema, async (request, extra) => {
      const p = request.params;
      const verdict = await sampling({
        server: server.name,
        messages: p.messages,
        maxTokens: p.maxTokens,
        ...(p.systemPrompt !== undefined ? { systemPrompt: p.systemPrompt } : {}),
        ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
        ...(p.stopSequences ? { stopSequences: p.stopSequences } : {}),
        ...(p.modelPreferences ? { modelPreferences: p.modelPreferences } : {}),
        ...(p.includeContext ? { includeContext: p.includeContext } : {}),
        ...(p.metadata ? { metadata: p.metadata as Record<string, unknown> } : {}),
      }, extra.signal);
      if (verdict.kind === "denied") throw new sdk.McpError(USER_REJECTED, verdict.reason);
      const { role, content, model, stopReason } = verdict.result;
      return { role, content, model, ...(stopReason ? { stopReason } : {}) } as CreateMessageResult;
    });
  }
  return client;
}

export interface TransportContext {
  platform: Platform;
  cwd: string;
  /** $TRELLIS_HOME: stderr of stdio servers goes to logs/mcp/<server>.log under it. */
  home: string;
  warn(message: string): void;
  /**
   * MCP-17: the fetch a streamable-HTTP server without bearer_token_env_var uses (OAuth tokens,
   * refresh, step-up); undefined → plain fetch.
   */
  oauthFetch?(server: McpServerConfig): Promise<FetchLike | undefined>;
  /**
   * #17 item 2: the argv that runs a stdio server with a `sandbox` profile under bwrap (the shell
   * tool's profile builder); throws a UsageError naming the server when it cannot be confined
   * here. Absent: no sandbox can be built, so every confined server is refused.
   */
  confine?: ServerConfinement;
  /** Receives a stdio server's stderr as it arrives (`mcp sandbox-check` reads its denials). */
  onStderr?(server: string, text: string): void;
}

/** `warn` receives what the profile dropped (a clamped `sandbox_writable` path, #20 item 11). */
export type ServerConfinement = (
  server: McpServerConfig,
  argv: string[],
  cwd: string,
  warn: (message: string) => void,
) => Promise<string[]>;

/** Builds the transport a server's config names; a missing secret variable is a UsageError. */
export async function createTransport(server: McpServerConfig, ctx: TransportContext): Promise<Transport> {
  const { SSEClientTransport, StreamableHTTPClientTransport } = await loadSdk();
  const t = server.transport;
  switch (t.type) {
    case "stdio": {
      if (server.sandboxRefusal) {
        throw new UsageError(server.sandboxRefusal, { server: server.name }, "mcp_config");
      }
      const cwd = t.cwd ? path.resolve(ctx.cwd, t.cwd) : ctx.cwd;
      const argv = [t.command, ...t.args];
      return new PlatformStdioTransport(ctx.platform, {
        cmd: server.sandbox ? await confined(server, argv, cwd, ctx) : argv,
        env: childEnv(ctx.platform.envAll(), { passThrough: t.envVars, set: t.env }),
        cwd,
        stderrLog: stderrLogPath(ctx.home, server.name),
        onWarning: ctx.warn,
        ...(ctx.onStderr ? { onStderr: (text: string) => ctx.onStderr!(server.name, text) } : {}),
      });
    }
    case "streamable_http": {
      const headers = httpHeaders(server, ctx.platform);
      const fetch = t.bearerTokenEnvVar ? undefined : await ctx.oauthFetch?.(server);
      return new StreamableHTTPClientTransport(new URL(t.url), {
        requestInit: { headers },
        ...(fetch ? { fetch } : {}),
      });
    }
    case "sse":
      return new SSEClientTransport(new URL(t.url), { requestInit: { headers: t.httpHeaders } });
  }
}

/** A server that asks for a sandbox is never started without one (#17 item 2). */
function confined(
  server: McpServerConfig,
  argv: string[],
  cwd: string,
  ctx: TransportContext,
): Promise<string[]> {
  if (ctx.confine) return ctx.confine(server, argv, cwd, ctx.warn);
  return Promise.reject(
    new UsageError(
      `MCP server "${server.name}" asks for sandbox = "${server.sandbox?.mode}", which this command cannot ` +
        "provide; it was not started",
      { server: server.name, field: "sandbox" },
      "mcp_config",
    ),
  );
}

export function stderrLogPath(home: string, server: string): string {
  return path.join(home, "logs", "mcp", `${server}.log`);
}

function httpHeaders(server: McpServerConfig, platform: Platform): Record<string, string> {
  if (server.transport.type !== "streamable_http") return {};
  const { bearerTokenEnvVar, httpHeaders, envHttpHeaders } = server.transport;
  const headers = { ...httpHeaders };
  for (const [header, variable] of Object.entries(envHttpHeaders)) {
    const value = platform.env(variable);
    if (value !== undefined && value !== "") headers[header] = value;
  }
  if (bearerTokenEnvVar) {
    const token = platform.env(bearerTokenEnvVar);
    if (!token) {
      throw new UsageError(
        `Cannot start MCP server "${server.name}": environment variable ${bearerTokenEnvVar} (bearer_token_env_var) is not set`,
        { server: server.name, field: "bearer_token_env_var" },
        "mcp_config",
      );
    }
    headers.Authorization = `Bearer ${token}`;
  }
  return headers;
}
