import { type Client, loadSdk, type Tool, type Transport } from "./_sdk.ts";
import {
  type ClientCallbacks,
  createSdkClient,
  createTransport,
  type TransportContext,
} from "./client_factory.ts";
import type { McpServerConfig } from "./server_config.ts";
import { PlatformStdioTransport } from "./stdio_transport.ts";
import { stderrReason } from "./stderr_summary.ts";
import { capInstructions } from "./server_instructions.ts";
import { describeToolProblems, repairTools, type ToolProblem } from "./tool_repair.ts";
import { TrellisError } from "../shared/mod.ts";

/** MCP-6 status as a discriminated union. */
export type ServerStatus =
  | { state: "starting" }
  | {
    state: "ready";
    durationMs: number;
    tools: Tool[];
    serverName?: string;
    serverVersion?: string;
    /** The initialize result's `instructions`, capped (#21 item 13). */
    instructions?: string;
  }
  | { state: "failed"; error: string; durationMs: number }
  | { state: "cancelled" };

export type SettledStatus = Exclude<ServerStatus, { state: "starting" }>;

/**
 * One client session with one server: transport start + initialize + first tools/list under the
 * startup timeout, then requests under the tool timeout. Shared by every generation that reuses it.
 */
export class ServerConnection {
  status: ServerStatus = { state: "starting" };
  readonly settled: Promise<SettledStatus>;
  #settle!: (status: SettledStatus) => void;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #abort = new AbortController();
  #holders = 0;
  #closing: Promise<void> | undefined;
  #started = false;
  #toolsStale = false;
  #toolsRefresh: Promise<void> | undefined;
  /** Tool problems already warned about: a refresh that lists the same broken tool says nothing. */
  #warnedProblems = new Set<string>();

  constructor(
    readonly config: McpServerConfig,
    readonly identity: string,
    private readonly ctx: TransportContext & Omit<ClientCallbacks, "toolsChanged">,
    private readonly onStatus: (status: SettledStatus) => void,
  ) {
    this.settled = new Promise((resolve) => this.#settle = resolve);
  }

  /** Pid of a stdio server process (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.#transport instanceof PlatformStdioTransport ? this.#transport.pid : undefined;
  }

  get client(): Client | undefined {
    return this.status.state === "ready" ? this.#client : undefined;
  }

  /** Starts once; later calls (a reusing generation) return false. */
  start(): boolean {
    if (this.#started) return false;
    this.#started = true;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new TrellisError(
              "mcp_protocol",
              `startup timed out after ${this.config.startupTimeoutMs / 1000} s`,
              {
                server: this.config.name,
              },
            ),
          ),
        this.config.startupTimeoutMs,
      );
    });
    Promise.race([this.#connect(), timeout]).then(
      (tools) =>
        this.#publish({ state: "ready", durationMs: Date.now() - started, tools, ...this.#serverInfo() }),
      async (error) => {
        if (this.#abort.signal.aborted) return this.#publish({ state: "cancelled" });
        await this.#stderrRead();
        this.#publish({ state: "failed", error: this.#describe(error), durationMs: Date.now() - started });
        void this.#shutdownTransport();
      },
    ).finally(() => clearTimeout(timer));
    return true;
  }

  async #connect(): Promise<Tool[]> {
    // MCP-16: only the local environment exists in this runtime; any other is refused, not guessed.
    if (this.config.environmentId !== "local") {
      throw new TrellisError(
        "mcp_config",
        `unknown environment "${this.config.environmentId}" (only "local" is available)`,
        {
          server: this.config.name,
          field: "environment_id",
        },
      );
    }
    this.#client = await createSdkClient(this.config, {
      ...this.ctx,
      toolsChanged: () => this.markToolsStale(),
    });
    this.#transport = await createTransport(this.config, this.ctx);
    const signal = this.#abort.signal;
    await this.#client.connect(this.#transport, { signal, timeout: this.config.startupTimeoutMs });
    this.#client.onclose = () => this.#lost();
    return await this.#listTools(this.#client);
  }

  /**
   * Every page of `tools/list`, read as servers publish it: the result is checked only for being an
   * object (not by the SDK's strict tool schema), each tool is repaired or dropped with a warning
   * (issue #21 item 12), and the SDK is told the tools that survived (output-schema validators, task
   * support) as its own `listTools` would.
   */
  async #listTools(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    if (!client.getServerCapabilities()?.tools) return tools;
    const { ResultSchema, ToolSchema } = await loadSdk();
    const problems: ToolProblem[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await client.request(
        { method: "tools/list", ...(cursor ? { params: { cursor } } : {}) },
        ResultSchema,
        { signal: this.#abort.signal },
      ) as Record<string, unknown>;
      const repaired = repairTools(page.tools);
      problems.push(...repaired.problems);
      for (const raw of repaired.tools) {
        const parsed = ToolSchema.safeParse(raw);
        if (parsed.success) tools.push(parsed.data as Tool);
        else problems.push(sdkProblem(raw, parsed.error));
      }
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
      if (cursor && seen.has(cursor)) {
        throw new TrellisError("mcp_protocol", "tools/list returned duplicate cursor", {
          server: this.config.name,
        });
      }
      if (cursor) seen.add(cursor);
    } while (cursor);
    (client as unknown as { cacheToolMetadata(tools: Tool[]): void }).cacheToolMetadata(tools);
    for (const line of describeToolProblems(problems)) {
      if (this.#warnedProblems.has(line)) continue;
      this.#warnedProblems.add(line);
      this.ctx.warn(line);
    }
    return tools;
  }

  /**
   * `tools/list_changed`: re-list in the background. The new list replaces `status.tools` as one
   * object, so a step that already captured the old list keeps it; the next capture sees the new one.
   */
  markToolsStale(): void {
    this.#toolsStale = true;
    this.#toolsRefresh ??= this.#refreshTools().finally(() => this.#toolsRefresh = undefined);
  }

  async #refreshTools(): Promise<void> {
    while (this.#toolsStale) {
      this.#toolsStale = false;
      try {
        const tools = await this.#listTools(await this.ready());
        if (this.status.state === "ready") this.status = { ...this.status, tools };
      } catch (error) {
        // A refresh cut short by close() (the command or session is ending) is no failure to report.
        if (this.#abort.signal.aborted || this.#closing) return;
        if (this.status.state === "ready") this.ctx.warn(`cannot refresh tools: ${this.#describe(error)}`);
      }
    }
  }

  /** Resolves once no tool-list refresh is pending (immediately when none is). */
  toolsSettled(): Promise<void> {
    return this.#toolsRefresh ?? Promise.resolve();
  }

  /** `notifications/roots/list_changed` to a ready server; a failure is only a warning. */
  async sendRootsChanged(): Promise<void> {
    const client = this.client;
    if (!client) return;
    await client.sendRootsListChanged().catch((error) =>
      this.ctx.warn(`cannot send roots/list_changed: ${this.#describe(error)}`)
    );
  }

  #serverInfo(): { serverName?: string; serverVersion?: string; instructions?: string } {
    const info = this.#client?.getServerVersion();
    const instructions = this.#client?.getInstructions();
    return {
      ...(info ? { serverName: info.name, serverVersion: info.version } : {}),
      ...(typeof instructions === "string" && instructions.trim() !== ""
        ? { instructions: capInstructions(instructions) }
        : {}),
    };
  }

  /** A process that exited has its last stderr read before its failure is described (bounded). */
  async #stderrRead(): Promise<void> {
    const transport = this.#transport;
    if (!(transport instanceof PlatformStdioTransport) || !transport.exit) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([transport.stderrClosed, new Promise((resolve) => timer = setTimeout(resolve, 500))]);
    clearTimeout(timer);
  }

  #describe(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const transport = this.#transport;
    if (transport instanceof PlatformStdioTransport && transport.exit) {
      // #21 item 14: the line that says why (not the last stack frame), and where the rest is.
      const reason = stderrReason(transport.stderrKept);
      const how = transport.exit.signal ? `signal ${transport.exit.signal}` : `code ${transport.exit.code}`;
      return `server process exited (${how})${reason ? `: ${reason}` : ""} (stderr: ${transport.stderrLog})`;
    }
    return message;
  }

  /** A ready server whose connection dropped (process died) is failed from now on. */
  #lost(): void {
    if (this.status.state !== "ready" || this.#closing) return;
    this.status = {
      state: "failed",
      error: this.#describe(
        new TrellisError("mcp_protocol", "connection closed", { server: this.config.name }),
      ),
      durationMs: 0,
    };
    this.onStatus(this.status);
  }

  #publish(status: SettledStatus): void {
    if (this.status.state !== "starting") return;
    this.status = status;
    this.#settle(status);
    this.onStatus(status);
  }

  /** Resolves with the client once ready; throws with the failure otherwise. */
  async ready(): Promise<Client> {
    const status = await this.settled;
    if (status.state === "ready" && this.#client && this.status.state === "ready") return this.#client;
    const current = this.status;
    throw new TrellisError(
      "mcp_protocol",
      current.state === "failed" ? current.error : `server is ${current.state}`,
      {
        server: this.config.name,
        state: current.state,
      },
    );
  }

  acquire(): void {
    this.#holders++;
  }

  /** Drops one holder; the last one closes the connection (pending startup cancelled). */
  release(): Promise<void> {
    this.#holders--;
    return this.#holders <= 0 ? this.close() : Promise.resolve();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#abort.abort();
      this.#publish({ state: "cancelled" });
      await this.#shutdownTransport();
    })();
    return this.#closing;
  }

  async #shutdownTransport(): Promise<void> {
    try {
      await (this.#client ? this.#client.close() : this.#transport?.close());
    } catch {
      // already gone
    }
  }
}

/** What the SDK's tool schema still refuses after the repairs: the first issue's field, dropped. */
function sdkProblem(
  tool: Record<string, unknown>,
  error: { issues?: { path: PropertyKey[]; message: string }[] },
): ToolProblem {
  const issue = error.issues?.[0];
  return {
    tool: String(tool.name),
    field: issue?.path.map(String).join(".") || "tool",
    message: `${issue?.message ?? "is not a valid MCP tool"}; the tool is not offered`,
    dropped: true,
  };
}
