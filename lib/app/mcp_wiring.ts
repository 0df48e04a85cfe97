import type { LoadedConfig } from "../config/mod.ts";
import {
  createMcpRuntime,
  type ElicitationResponder,
  type McpRuntime,
  mcpServersFromConfig,
  type McpStepSnapshot,
  type PluginMcpServer,
} from "../mcp/mod.ts";
import type { Platform } from "../platform/mod.ts";
import type { EventSink } from "../shared/mod.ts";
import { approvalRequest, type Approver, approves, type ModelClient } from "../loop/mod.ts";
import { reportDiagnostics } from "./diagnostics.ts";
import { samplingHandler } from "./sampling_handler.ts";

const DEFAULT_STARTUP_GRACE_SEC = 5;

/**
 * Owns the thread's MCP runtime: none until the catalog has a server (so a turn without MCP never
 * loads the SDK), refreshed best-effort when plugins change the catalog (MCP-8, PL-11).
 */
export class McpHolder {
  private runtime: McpRuntime | null = null;
  private serverNames: string[] = [];

  constructor(
    private readonly options: {
      platform: Platform;
      loaded: LoadedConfig;
      events: EventSink;
      elicitation: ElicitationResponder;
      /** The session's model answers sampling requests; the approver asks consent under "prompt". */
      model: ModelClient;
      approver: Approver;
    },
  ) {}

  /** Resolves the catalog for these plugin servers and starts (or refreshes) the runtime. */
  async apply(pluginServers: PluginMcpServer[], options: { initial: boolean }): Promise<void> {
    const { platform, loaded, events } = this.options;
    const { catalog, diagnostics } = mcpServersFromConfig(loaded, { platform, pluginServers });
    reportDiagnostics(events, diagnostics);
    this.serverNames = catalog.servers.map((r) => r.config.name);
    const graceMs = (loaded.config.mcp_startup_grace_sec ?? DEFAULT_STARTUP_GRACE_SEC) * 1000;
    if (this.runtime) {
      // Best-effort (MCP-8): a failed refresh is a warning; servers it adds get the same grace.
      await this.runtime.refresh(catalog, { strict: false })
        .then(() => this.runtime?.awaitStartup({ graceMs }))
        .catch((error) =>
          events({ type: "warning", message: `MCP refresh failed: ${(error as Error).message}` })
        );
      return;
    }
    if (catalog.servers.length === 0) return;
    this.runtime = createMcpRuntime({
      platform,
      catalog,
      events,
      cwd: loaded.paths.cwd,
      home: loaded.paths.home,
      elicitation: this.options.elicitation,
      approvalPolicy: loaded.config.approval_policy ?? "on-request",
      ...(loaded.config.tool_output_max_bytes
        ? { outputBudgetBytes: loaded.config.tool_output_max_bytes }
        : {}),
      roots: [loaded.paths.cwd],
      toolSearch: {
        mode: loaded.config.tool_search === true
          ? "on"
          : loaded.config.tool_search === false
          ? "off"
          : "auto",
        ...(loaded.config.model_context_window ? { contextWindow: loaded.config.model_context_window } : {}),
        ...(loaded.config.tool_search_context_share
          ? { share: loaded.config.tool_search_context_share }
          : {}),
      },
      sampling: {
        handler: samplingHandler(this.options.model, loaded.config.model ?? ""),
        confirm: async (server, summary) =>
          approves(
            await this.options.approver.request(approvalRequest({
              callId: `sampling-${server}`,
              toolName: `sampling by MCP server ${server}`,
              args: { summary },
              reason: `MCP server "${server}" asks the model: ${summary}`,
            })),
          ),
      },
    });
    this.runtime.start();
    // At session start a failed required server ends the session (MCP-7); later it is a warning.
    await this.runtime.awaitStartup({ graceMs }).catch((error) => {
      if (options.initial) throw error;
      events({ type: "warning", message: (error as Error).message });
    });
  }

  /** The step's MCP tools; tool lists a server announced as changed are re-read first. */
  async captureStep(): Promise<McpStepSnapshot | null> {
    if (!this.runtime) return null;
    await this.runtime.awaitToolLists();
    return this.runtime.captureStep();
  }

  /** Every enabled server of the resolved catalog: config, `.mcp.json` and plugins (SK-14 checks). */
  configuredServerNames(): string[] {
    return this.serverNames;
  }

  async shutdown(): Promise<void> {
    await this.runtime?.shutdown();
    this.runtime = null;
  }
}
