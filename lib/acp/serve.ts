import * as acp from "@agentclientprotocol/sdk";
import { describeError, isTrellisError } from "../shared/mod.ts";
import { clientEditor } from "./client_editor.ts";
import type { AcpHost, AcpMcpServer } from "./host.ts";
import { ServedSession } from "./served_session.ts";

export interface AcpServeOptions {
  host: AcpHost;
  version: string;
  /** The client's messages (stdin) and where ours go (stdout): newline-delimited JSON-RPC. */
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
  /** Aborted to stop serving (SIGINT, SIGTERM). */
  shutdown: AbortSignal;
  /** Diagnostics, for stderr: stdout belongs to the protocol. */
  log(line: string): void;
}

/** ACP's protocol version 1: what this agent speaks, so clients built on older SDKs still connect. */
const PROTOCOL_VERSION = 1;

/**
 * `trellis acp` (#25 item 1): an Agent Client Protocol agent over stdio, on the official SDK. Each
 * `session/new` opens a Trellis session (config, hooks, skills, plugins, MCP as in the CLI); a
 * prompt runs one turn, its events streamed as `session/update`s, its approvals asked with
 * `session/request_permission`. Until the client closes the pipe or a signal: then every running
 * turn is aborted and every session closes (its transcript kept, nothing left running).
 */
export async function serveAcp(options: AcpServeOptions): Promise<void> {
  const sessions = new Map<string, ServedSession>();
  let capabilities: acp.ClientCapabilities = {};
  // Handlers run only once the connection below exists; they reach the client through it.
  const link: { connection?: acp.AgentConnection } = {};
  const client = () => link.connection!.client;

  const find = (sessionId: string): ServedSession => {
    const session = sessions.get(sessionId);
    if (!session) {
      throw new acp.RequestError(
        -32002,
        `Unknown session "${sessionId}": no session of that id is open in this agent (session/new or session/load first)`,
        { sessionId },
      );
    }
    return session;
  };

  const open = async (
    params: { cwd: string; mcpServers?: acp.McpServer[] },
    resume?: string,
  ): Promise<ServedSession> => {
    const served = await ServedSession.open({
      host: options.host,
      client,
      cwd: params.cwd,
      mcpServers: (params.mcpServers ?? []).map(normalizeServer),
      editor: (sessionId, updates) => clientEditor(client, capabilities, sessionId, updates),
      log: options.log,
      ...(resume ? { resume } : {}),
    });
    sessions.get(served.id)?.close().catch(() => {});
    sessions.set(served.id, served);
    return served;
  };

  const app = acp.agent({ name: "trellis" })
    .onRequest("initialize", ({ params }) => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true, audio: false },
          mcpCapabilities: { http: true, sse: false },
        },
        authMethods: [],
        agentInfo: { name: "trellis", title: "Trellis", version: options.version },
      };
    })
    .onRequest("authenticate", () => ({}))
    .onRequest("session/new", async ({ params }) => {
      const served = await guarded(() => open(params));
      served.announceCommands();
      return { sessionId: served.id, modes: served.modeState(), configOptions: served.configOptions() };
    })
    .onRequest("session/load", async ({ params }) => {
      const served = await guarded(() => open(params, params.sessionId));
      await served.replayHistory();
      served.announceCommands();
      return { modes: served.modeState(), configOptions: served.configOptions() };
    })
    .onRequest("session/prompt", async ({ params }) => {
      const served = find(params.sessionId);
      return await served.prompt(params.prompt);
    })
    .onNotification("session/cancel", ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest("session/set_mode", async ({ params }) => {
      await guarded(() => find(params.sessionId).setMode(params.modeId));
      return {};
    })
    .onRequest("session/set_config_option", async ({ params }) => {
      const served = find(params.sessionId);
      await guarded(() => served.setConfigOption(params.configId, String(params.value)));
      return { configOptions: served.configOptions() };
    })
    // `session/set_model`: the unstable method clients built on SDK 0.x/1.x send (Zed, acpx).
    .onRequest(
      "session/set_model",
      (raw: unknown) => setModelParams(raw),
      async ({ params }) => {
        await guarded(() => find(params.sessionId).setConfigOption("model", params.modelId));
        return {};
      },
    )
    .onRequest("session/close", async ({ params }) => {
      const served = sessions.get(params.sessionId);
      sessions.delete(params.sessionId);
      await served?.close();
      return {};
    });

  const connection = app.connect(acp.ndJsonStream(options.output, options.input));
  link.connection = connection;
  const stopped = new Promise<void>((resolve) => {
    if (options.shutdown.aborted) resolve();
    options.shutdown.addEventListener("abort", () => resolve(), { once: true });
  });
  try {
    await Promise.race([connection.closed, stopped]);
  } finally {
    // The client went away (or a signal): stop every turn, let its calls record aborted
    // outputs, close every session (transcripts kept, MCP servers and hooks ended).
    await Promise.allSettled([...sessions.values()].map((s) => s.close()));
    sessions.clear();
    connection.close();
  }
}

/** A TrellisError (a bad cwd, an unknown mode, a broken config) as a JSON-RPC error naming it. */
async function guarded<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof acp.RequestError) throw error;
    if (isTrellisError(error)) {
      throw new acp.RequestError(
        error.code === "usage" ? -32602 : -32603,
        describeError(error),
        { code: error.code, ...error.data },
      );
    }
    throw acp.RequestError.internalError({ message: describeError(error) }, describeError(error));
  }
}

function normalizeServer(server: acp.McpServer): AcpMcpServer {
  const pairs = (list: { name: string; value: string }[] | undefined) =>
    Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));
  if ("type" in server && (server.type === "http" || server.type === "sse")) {
    return { name: server.name, transport: server.type, url: server.url, headers: pairs(server.headers) };
  }
  const stdio = server as acp.McpServerStdio;
  return {
    name: stdio.name,
    transport: "stdio",
    command: stdio.command,
    args: stdio.args,
    env: pairs(stdio.env),
  };
}

function setModelParams(raw: unknown): { sessionId: string; modelId: string } {
  const value = raw as { sessionId?: unknown; modelId?: unknown } | null;
  if (typeof value?.sessionId !== "string" || typeof value?.modelId !== "string") {
    throw acp.RequestError.invalidParams(
      undefined,
      "session/set_model needs sessionId and modelId (strings)",
    );
  }
  return { sessionId: value.sessionId, modelId: value.modelId };
}
