import { type LoadedConfig, SessionSettings } from "../config/mod.ts";
import {
  createMcpRuntime,
  type ElicitationResponder,
  findPromptMentions,
  getManagerPrompt,
  listManagerPrompts,
  type McpPromptListing,
  type McpRuntime,
  type McpRuntimeOptions,
  type McpServerConfig,
  type McpServerOverview,
  mcpServerOverview,
  type McpStepSnapshot,
  type PluginMcpServer,
  promptArguments,
  resolveCatalog,
  type ResolvedCatalog,
  ToolPins,
} from "../mcp/mod.ts";
import type { Platform } from "../platform/mod.ts";
import type { McpToolAnswer } from "../hooks/mod.ts";
import {
  type ConversationItem,
  type Diagnostic,
  type EventSink,
  type PromptExpansion,
  UsageError,
} from "../shared/mod.ts";
import { approvalRequest, type Approver, approves, type ModelClient } from "../loop/mod.ts";
import { reportDiagnostics } from "./diagnostics.ts";
import { samplingHandler } from "./sampling_handler.ts";
import { contextWindowOrAssumed } from "./context_window.ts";
import { mcpConfinement } from "./mcp_confinement.ts";

const DEFAULT_STARTUP_GRACE_SEC = 5;

export interface McpWiringOptions {
  platform: Platform;
  loaded: LoadedConfig;
  events: EventSink;
  elicitation: ElicitationResponder;
  /** The session's model answers sampling requests; the approver asks consent under "prompt". */
  model: ModelClient;
  approver: Approver;
  /** A preview (`debug prompt`, `mcp tools`): tool pins are checked, never written. */
  preview?: boolean;
  /**
   * The session's settings: the runtime reads the approval policy and the model from them at each
   * call (`/approvals`, `/model`). Absent (a `trellis mcp` command): fixed, from `loaded`.
   */
  settings?: SessionSettings;
}

/**
 * The one place a runtime's options are assembled, for a session and for a `trellis mcp` command
 * alike (issue #16 item 5): sampling by the session's model, elicitation, roots, tool search,
 * output budget and pinned tool definitions. Same options, same tool set.
 */
export function mcpRuntimeOptions(
  options: McpWiringOptions,
  catalog: ResolvedCatalog,
  pins: ToolPins,
): McpRuntimeOptions {
  const { platform, loaded, events } = options;
  const config = loaded.config;
  const settings = options.settings ?? SessionSettings.fromConfig(loaded);
  return {
    platform,
    catalog,
    events,
    cwd: loaded.paths.cwd,
    home: loaded.paths.home,
    elicitation: options.elicitation,
    approvalPolicy: () => settings.approvalPolicy,
    ...(config.tool_output_max_bytes ? { outputBudgetBytes: config.tool_output_max_bytes } : {}),
    roots: [loaded.paths.cwd],
    toolSearch: {
      mode: config.tool_search === true ? "on" : config.tool_search === false ? "off" : "auto",
      // #21 item 17: an unknown window is the assumed one, as compaction assumes it.
      contextWindow: contextWindowOrAssumed(config).tokens,
      windowAssumed: contextWindowOrAssumed(config).assumed,
      ...(config.tool_search_context_share ? { share: config.tool_search_context_share } : {}),
    },
    sampling: {
      handler: samplingHandler(options.model, () => settings.model),
      confirm: async (server, summary) =>
        approves(
          await options.approver.request(approvalRequest({
            callId: `sampling-${server}`,
            toolName: `sampling by MCP server ${server}`,
            args: { summary },
            reason: `MCP server "${server}" asks the model: ${summary}`,
          })),
        ),
    },
    pins,
    recordPins: !options.preview,
    confine: mcpConfinement(platform, loaded),
  };
}

/** The pin file; one that cannot be read is reported and left as it is (nothing is recorded). */
export async function loadToolPins(platform: Platform, home: string, events: EventSink): Promise<ToolPins> {
  const pins = await ToolPins.load(platform.fs, home);
  if (pins.error) events({ type: "warning", message: `MCP tool pins are not checked: ${pins.error}` });
  return pins;
}

/**
 * Owns the thread's MCP runtime: none until the catalog has a server (so a turn without MCP never
 * loads the SDK), refreshed best-effort when plugins change the catalog (MCP-8, PL-11). The
 * catalog comes from the workspace's loads (`catalogWith`), never resolved here (#26 item 2).
 */
export class McpHolder {
  private runtime: McpRuntime | null = null;
  private serverNames: string[] = [];

  constructor(
    private readonly options: McpWiringOptions & {
      catalogWith: (
        pluginServers: PluginMcpServer[],
      ) => { catalog: ResolvedCatalog; diagnostics: Diagnostic[] };
    },
  ) {}

  /** Resolves the catalog for these plugin servers and starts (or refreshes) the runtime. */
  async apply(pluginServers: PluginMcpServer[], options: { initial: boolean }): Promise<void> {
    const { platform, loaded, events } = this.options;
    const { catalog, diagnostics } = this.options.catalogWith(pluginServers);
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
    const pins = await loadToolPins(platform, loaded.paths.home, events);
    this.runtime = createMcpRuntime(mcpRuntimeOptions(this.options, catalog, pins));
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

  /**
   * An `mcp_tool` hook's call (#24 item 2): the tool of a connected server, run with the event as
   * its arguments and no approval (the hook itself was trusted). A server that is not connected,
   * or has no such tool, is named.
   */
  async callToolForHook(
    request: { server: string; tool: string; arguments: Record<string, unknown>; signal: AbortSignal },
    cwd: string,
  ): Promise<McpToolAnswer> {
    const step = await this.captureStep();
    if (!step) {
      return { ok: false, problem: `MCP server "${request.server}" is not connected (no MCP servers run)` };
    }
    try {
      const hookName = `mcp__${request.server}__${request.tool}`;
      const tool = step.tools.find((t) => t.hookName === hookName);
      if (!tool) {
        const connected = step.tools.some((t) => t.hookName.startsWith(`mcp__${request.server}__`));
        return {
          ok: false,
          problem: connected
            ? `MCP server "${request.server}" has no tool "${request.tool}"`
            : `MCP server "${request.server}" is not connected`,
        };
      }
      const result = await tool.run(tool.parseArguments(request.arguments), {
        callId: `hook-${crypto.randomUUID()}`,
        cwd,
        signal: request.signal,
        emit: this.options.events,
        escalated: false,
      });
      return { ok: true, text: result.output, isError: result.status !== "success" };
    } finally {
      step.release();
    }
  }

  /**
   * Servers only one subagent sees (#22 item 1, frontmatter `mcpServers` inline entries): a runtime
   * of their own, built with the session's options — the same pins, confinement, sampling and
   * elicitation — started for that child and shut down with it. `scope` decides the default
   * pinning as for any server: a project's or plugin's agent blocks changed tools, the user's warns.
   */
  async startScoped(
    configs: McpServerConfig[],
    where: { source: string; scope: "user" | "project" | "plugin" },
  ): Promise<{ captureStep: () => McpStepSnapshot; shutdown: () => Promise<void> }> {
    const { platform, loaded, events } = this.options;
    const registrations = configs.map((config) => {
      config.toolPinning = where.scope === "user" ? "warn" : "block";
      return { tier: "extension" as const, source: where.source, scope: where.scope, config };
    });
    const catalog = resolveCatalog(registrations, [], []);
    const pins = await loadToolPins(platform, loaded.paths.home, events);
    const runtime = createMcpRuntime(mcpRuntimeOptions(this.options, catalog, pins));
    runtime.start();
    const graceMs = (loaded.config.mcp_startup_grace_sec ?? DEFAULT_STARTUP_GRACE_SEC) * 1000;
    await runtime.awaitStartup({ graceMs }).catch((error) =>
      events({ type: "warning", message: (error as Error).message })
    );
    return { captureStep: () => runtime.captureStep(), shutdown: () => runtime.shutdown() };
  }

  /** Each running server's state, transport, origin and tools against their pins (`/mcp`). */
  serverOverview(): McpServerOverview[] {
    return this.runtime ? mcpServerOverview(this.runtime.manager) : [];
  }

  /** Every enabled server of the resolved catalog: config, `.mcp.json` and plugins (SK-14 checks). */
  configuredServerNames(): string[] {
    return this.serverNames;
  }

  /**
   * The prompts of every ready server (`/mcp__server__prompt` in an interactive mode); a server
   * whose listing fails is named in a warning and left out.
   */
  async listPrompts(): Promise<McpPromptListing[]> {
    if (!this.runtime) return [];
    const { prompts, failures } = await listManagerPrompts(this.runtime.manager);
    for (const f of failures) {
      this.options.events({
        type: "warning",
        message: `MCP server '${f.server}': cannot list prompts: ${f.error}`,
        subject: f.server,
      });
    }
    return prompts;
  }

  /**
   * One prompt, by its `mcp__server__prompt` name, expanded with `prompts/get` into conversation
   * items; `argsText` is what followed the name (`a b`, `city="New York"`).
   */
  async expandPrompt(name: string, argsText: string): Promise<ConversationItem[]> {
    const prompt = (await this.listPrompts()).find((p) => p.modelName === name);
    if (!prompt) throw new UsageError(`No MCP prompt named ${name}`, { field: "prompt" });
    return await this.#expand(prompt, argsText);
  }

  /**
   * The prompts a user text mentions (`$mcp__server__prompt args`, or a leading
   * `/mcp__server__prompt args`), expanded in order. A mention that cannot be expanded is a
   * warning, never a lost turn.
   */
  async expandPromptMentions(text: string): Promise<PromptExpansion[]> {
    if (!this.runtime || !text.includes("mcp__")) return [];
    const items: PromptExpansion[] = [];
    for (const mention of findPromptMentions(text, await this.listPrompts())) {
      try {
        items.push({
          expansionType: "mcp_prompt",
          commandName: mention.prompt.modelName,
          commandArgs: mention.argsText,
          commandSource: "mcp",
          items: await this.#expand(mention.prompt, mention.argsText),
        });
      } catch (error) {
        this.options.events({
          type: "warning",
          message: (error as Error).message,
          subject: mention.prompt.server,
        });
      }
    }
    return items;
  }

  async #expand(prompt: McpPromptListing, argsText: string): Promise<ConversationItem[]> {
    const parsed = promptArguments(prompt, argsText);
    if ("error" in parsed) throw new UsageError(parsed.error, { server: prompt.server, field: prompt.name });
    const started = Date.now();
    const { events } = this.options;
    const operation = `prompts/get ${prompt.name}`;
    events({ type: "mcp.resource_operation", phase: "begin", server: prompt.server, operation });
    const end = (error?: string) =>
      events({
        type: "mcp.resource_operation",
        phase: "end",
        server: prompt.server,
        operation,
        duration_ms: Date.now() - started,
        ...(error === undefined ? {} : { error }),
      });
    try {
      const items = await getManagerPrompt(this.runtime!.manager, prompt.server, prompt.name, parsed.args);
      end();
      return items;
    } catch (error) {
      const message = `MCP prompt ${prompt.modelName} failed: ${(error as Error).message}`;
      end(message);
      throw new UsageError(message, { server: prompt.server });
    }
  }

  async shutdown(): Promise<void> {
    await this.runtime?.shutdown();
    this.runtime = null;
  }
}
