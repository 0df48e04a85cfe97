import type { HttpServer, Platform } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { loadServerSdk, type Server, type WebStandardStreamableHTTPServerTransport } from "./_server_sdk.ts";
import { bearerCheck } from "./http_bearer.ts";
import { buildToolServer, type ServedTool, type ServedToolsInfo } from "./tool_server.ts";

export interface ServedHttp {
  /** The endpoint, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** Open MCP sessions (one per initialized client). */
  sessionCount(): number;
  /** Ends every session (their calls see their signals aborted), then stops listening. */
  close(): Promise<void>;
}

interface HttpSession {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  /** `tools/call`s still running in this session. */
  running: number;
}

export const MCP_HTTP_PATH = "/mcp";
// Bun ends a response stream that stays silent for 10 s; the SDK's default keep-alive is 15 s.
const KEEP_ALIVE_MS = 5_000;
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Serves `tools` over Streamable HTTP on the loopback interface only, one SDK `Server` and
 * `WebStandardStreamableHTTPServerTransport` per session (the SDK's stateful pattern). A request
 * whose Host or Origin is not a loopback name is refused (DNS rebinding: the rule of the SDK's
 * `localhostHostValidation`, which exists only as Express middleware); then, unless `bearerToken` is
 * null, a request without that token is answered 401 (another local user, or a sandboxed process
 * with the network on, reaches the loopback interface too). A client that drops the stream of a
 * call still running has gone away: its session is dropped, which aborts its calls.
 */
export async function serveToolsOverHttp(
  info: ServedToolsInfo,
  tools: ServedTool[],
  options: { platform: Platform; port: number; bearerToken: string | null },
): Promise<ServedHttp> {
  const sdk = await loadServerSdk();
  const authorize = options.bearerToken === null ? () => null : bearerCheck(options.bearerToken);
  const sessions = new Map<string, HttpSession>();

  const drop = (session: HttpSession) => {
    if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
    return session.server.close().catch((error) => info.onError(`MCP server: ${error.message}`));
  };

  const open = async (): Promise<HttpSession> => {
    const session = { running: 0 } as HttpSession;
    const counted = tools.map((tool): ServedTool => ({
      ...tool,
      async call(args, call) {
        session.running++;
        try {
          return await tool.call(args, call);
        } finally {
          session.running--;
        }
      },
    }));
    session.server = buildToolServer(sdk, info, counted);
    session.transport = new sdk.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, session),
      onsessionclosed: (id) => void sessions.delete(id),
      keepAliveMs: KEEP_ALIVE_MS,
    });
    session.transport.onclose = () => {
      if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
    };
    await session.server.connect(session.transport);
    return session;
  };

  const handle = async (request: Request): Promise<Response> => {
    const refusal = refuseForeignHost(request) ?? authorize(request);
    if (refusal) return refusal;
    if (new URL(request.url).pathname !== MCP_HTTP_PATH) {
      return jsonError(404, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}`);
    }
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = sessions.get(id);
      if (!session) return jsonError(404, `Session not found: "${id}" (it ended, or the server restarted)`);
      return watchDisconnect(request, await session.transport.handleRequest(request), session, drop);
    }
    if (request.method !== "POST") return jsonError(400, "Bad request: no mcp-session-id header");
    let body: unknown;
    try {
      body = await request.json();
    } catch (error) {
      return jsonError(400, `Parse error: ${(error as Error).message}`, -32700);
    }
    if (!sdk.isInitializeRequest(body)) {
      return jsonError(400, "Bad request: no mcp-session-id header, and the request is not an initialize");
    }
    const session = await open();
    const response = await session.transport.handleRequest(request, { parsedBody: body });
    return watchDisconnect(request, response, session, drop);
  };

  let listener: HttpServer;
  try {
    // Bun throws at once and Deno rejects: both are the same mistake (the port is taken).
    listener = await options.platform.serveHttp(handle, { hostname: "127.0.0.1", port: options.port });
  } catch (error) {
    throw new UsageError(`Cannot listen on 127.0.0.1:${options.port}: ${(error as Error).message}`, {
      field: "--http",
    });
  }
  return {
    url: `http://127.0.0.1:${listener.port}${MCP_HTTP_PATH}`,
    sessionCount: () => sessions.size,
    async close() {
      await Promise.all([...sessions.values()].map(drop));
      await listener.close();
    },
  };
}

/**
 * Passes a POST's event stream through, noticing when the client cancels it: with calls still
 * running in the session, their results could never be delivered, so the session is dropped.
 */
function watchDisconnect(
  request: Request,
  response: Response,
  session: HttpSession,
  drop: (session: HttpSession) => Promise<void>,
): Response {
  const body = response.body;
  if (
    request.method !== "POST" || !body || !response.headers.get("content-type")?.includes("text/event-stream")
  ) {
    return response;
  }
  const reader = body.getReader();
  const watched = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      if (session.running > 0) void drop(session);
      return reader.cancel(reason);
    },
  });
  return new Response(watched, { status: response.status, headers: response.headers });
}

function refuseForeignHost(request: Request): Response | null {
  const host = request.headers.get("host");
  if (!host || !LOOPBACK_NAMES.has(hostnameOf(`http://${host}`))) {
    return jsonError(403, `Forbidden: Host "${host ?? ""}" is not a loopback name`);
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !LOOPBACK_NAMES.has(hostnameOf(origin))) {
    return jsonError(403, `Forbidden: Origin "${origin}" is not a loopback origin`);
  }
  return null;
}

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

function jsonError(status: number, message: string, code = -32000): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}
