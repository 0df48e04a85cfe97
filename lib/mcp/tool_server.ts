import type { CallToolResult, ElicitRequestParams, LoggingLevel, Server, ServerSdk } from "./_server_sdk.ts";
import type { ElicitationResponse } from "./elicitation.ts";

/**
 * Trellis serving tools over MCP (`trellis mcp-server`), on the SDK's low-level `Server`: the tools
 * are plain objects with JSON Schemas and a handler, and each call gets a context for what the
 * protocol lets a server do while a call runs — progress, notifications, logging and elicitation —
 * so lib/app never touches the SDK.
 */

export interface ServedToolsInfo {
  name: string;
  version: string;
  /** Shown to the client at initialize (how to use the tools). */
  instructions?: string;
  /** Protocol-level problems (a broken frame, a failed write): for stderr, never stdout. */
  onError(message: string): void;
}

/** A form or URL elicitation to send to the calling client (`elicitation/create`). */
export type ClientElicitation =
  | { mode: "form"; message: string; requestedSchema: Record<string, unknown> }
  | { mode: "url"; message: string; url: string; elicitationId: string };

export interface ServedToolCall {
  /** The JSON-RPC id of the `tools/call`. */
  requestId: string | number;
  /** Aborted when the client cancels the call (`notifications/cancelled`) or goes away. */
  signal: AbortSignal;
  /** A `notifications/progress` with this message, when the client sent a progressToken. */
  progress(message: string): void;
  /** A notification of the server's own (e.g. `trellis/event`), tied to this call. */
  notify(method: string, params: Record<string, unknown>): void;
  /** A `notifications/message` at `level`, filtered by the level the client set. */
  log(level: LoggingLevel, message: string): void;
  /** The elicitation modes the client declared at initialize. */
  elicitationModes(): { form: boolean; url: boolean };
  /** Asks the client; rejects when it fails to answer (error, timeout, gone). */
  elicit(request: ClientElicitation, signal: AbortSignal): Promise<ElicitationResponse>;
}

export interface ServedToolResult {
  text: string;
  structured?: Record<string, unknown>;
  isError?: boolean;
}

export interface ServedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  call(args: Record<string, unknown>, call: ServedToolCall): Promise<ServedToolResult>;
}

/** How long the ping that follows a call's last progress may take before the result goes anyway. */
const PROGRESS_BARRIER_TIMEOUT_MS = 2_000;

/** How long an elicitation may wait for a person before it counts as unanswered. */
export const CLIENT_ELICITATION_TIMEOUT_MS = 30 * 60_000;

/** One SDK `Server` with `tools` (and `logging`) for one client connection. */
export function buildToolServer(sdk: ServerSdk, info: ServedToolsInfo, tools: ServedTool[]): Server {
  const server = new sdk.Server(
    { name: info.name, version: info.version },
    {
      capabilities: { tools: {}, logging: {} },
      ...(info.instructions ? { instructions: info.instructions } : {}),
    },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.onerror = (error) => info.onError(`MCP server: ${error.message}`);
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as { type: "object" },
      ...(t.outputSchema ? { outputSchema: t.outputSchema as { type: "object" } } : {}),
    })),
  }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new sdk.McpError(
        sdk.ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}": this server has ${tools.map((t) => t.name).join(", ")}`,
      );
    }
    const token = request.params._meta?.progressToken;
    let progress = 0;
    const report = (what: string) => (error: Error) => info.onError(`MCP server: ${what}: ${error.message}`);
    const call: ServedToolCall = {
      requestId: extra.requestId,
      signal: extra.signal,
      progress(message) {
        if (token === undefined || extra.signal.aborted) return;
        progress++;
        extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress, message },
        })
          .catch(report("progress"));
      },
      notify(method, params) {
        if (extra.signal.aborted) return;
        // deno-lint-ignore no-explicit-any
        extra.sendNotification({ method, params } as any).catch(report(method));
      },
      log(level, message) {
        server.sendLoggingMessage({ level, logger: info.name, data: message }, extra.sessionId)
          .catch(report("log"));
      },
      elicitationModes() {
        const declared = server.getClientCapabilities()?.elicitation;
        return { form: Boolean(declared?.form), url: Boolean(declared?.url) };
      },
      async elicit(params, signal) {
        const result = await server.elicitInput(params as ElicitRequestParams, {
          relatedRequestId: extra.requestId,
          signal,
          timeout: CLIENT_ELICITATION_TIMEOUT_MS,
        });
        return {
          action: result.action,
          ...(result.content ? { content: result.content as Record<string, unknown> } : {}),
        };
      },
    };
    const result = await tool.call(request.params.arguments ?? {}, call);
    if (progress > 0 && !extra.signal.aborted) {
      // The SDK's client dispatches a notification a microtask after reading it but a response at
      // once, so progress read in the same chunk as the result is dropped as "unknown token" and
      // reported to the client's onerror (typescript-sdk#2580). A ping on the same stream is
      // answered only after the client has dispatched everything before it.
      await extra.sendRequest({ method: "ping" }, sdk.EmptyResultSchema, {
        timeout: PROGRESS_BARRIER_TIMEOUT_MS,
      })
        .catch(() => {});
    }
    return {
      content: [{ type: "text", text: result.text }],
      ...(result.structured ? { structuredContent: result.structured } : {}),
      ...(result.isError ? { isError: true } : {}),
    };
  });
  return server;
}
