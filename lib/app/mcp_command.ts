import type { LoadedConfig } from "../config/mod.ts";
import { type Approver, noTtyApprover, ttyApprover } from "../loop/mod.ts";
import {
  createMcpRuntime,
  type McpRuntime,
  noUiElicitationResponder,
  type ResolvedCatalog,
  type ToolPins,
  ttyElicitationResponder,
} from "../mcp/mod.ts";
import { createModelClient, resolveProvider } from "../model/mod.ts";
import type { ModelClient } from "../loop/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { type Diagnostic, type EventSink, UsageError } from "../shared/mod.ts";
import { loadToolPins, mcpRuntimeOptions } from "./mcp_wiring.ts";

export interface McpCommandOptions {
  platform: Platform;
  loaded: LoadedConfig;
  events: EventSink;
  /** Only this server is started (a UsageError when the catalog has none of that name). */
  server?: string;
  /** A person can answer on the terminal: elicitations and sampling consent are asked there. */
  interactive: boolean;
  /** Where terminal prompts go (stderr). */
  write(text: string): void;
  /** Pin a server's tools the first time the command uses them (`mcp call`); default false. */
  recordPins?: boolean;
}

export interface McpCommandRuntime {
  runtime: McpRuntime;
  catalog: ResolvedCatalog;
  pins: ToolPins;
}

/**
 * An MCP runtime for a `trellis mcp` command, assembled as a session assembles its own (issue #16
 * item 5): the session's model answers sampling, elicitations and sampling consent go to the
 * terminal when there is one, the workspace is the root, tool pins are checked. Started, awaited
 * (every selected server up to its startup timeout) and with announced tool lists re-read, so
 * what the command shows is what a session's first step would offer. Shut it down when done.
 */
export async function openMcpCommand(
  options: McpCommandOptions,
  resolved: { catalog: ResolvedCatalog; diagnostics: Diagnostic[] },
): Promise<McpCommandRuntime> {
  const { platform, loaded, events } = options;
  const { catalog, diagnostics } = resolved;
  for (const d of diagnostics) {
    if (d.level === "info") events({ type: "notice", message: d.message });
    else events({ type: "warning", message: d.message });
  }
  const servers = catalog.servers.filter((s) =>
    options.server === undefined || s.config.name === options.server
  );
  if (options.server !== undefined && servers.length === 0) {
    throw new UsageError(`No MCP server named '${options.server}' found.`, { server: options.server });
  }
  const io = { readLine: () => platform.readLine(), write: options.write };
  const approver: Approver = options.interactive ? ttyApprover(io) : noTtyApprover;
  const pins = await loadToolPins(platform, loaded.paths.home, events);
  const selected = { ...catalog, servers };
  const runtime = createMcpRuntime(mcpRuntimeOptions(
    {
      platform,
      loaded,
      events,
      elicitation: options.interactive ? ttyElicitationResponder(io) : noUiElicitationResponder,
      model: commandModel(platform, loaded),
      approver,
      preview: !options.recordPins,
    },
    selected,
    pins,
  ));
  runtime.start();
  try {
    const graceMs = Math.max(0, ...servers.map((s) => s.config.startupTimeoutMs));
    await runtime.awaitStartup({ graceMs });
    await runtime.awaitToolLists();
  } catch (error) {
    await runtime.shutdown();
    throw error;
  }
  return { runtime, catalog: selected, pins };
}

/**
 * The model a session would use, for sampling. A provider that cannot be resolved (no such
 * provider) leaves a model whose every request fails: the sampling request is then denied with
 * that reason, exactly as it would be in a session that could not reach its model.
 */
function commandModel(platform: Platform, loaded: LoadedConfig): ModelClient {
  try {
    return createModelClient(resolveProvider(loaded.config, platform.env, { requireKey: false }), {});
  } catch (error) {
    return {
      // deno-lint-ignore require-yield
      stream: async function* () {
        throw error;
      },
    };
  }
}
