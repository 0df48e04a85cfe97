import {
  callManagerTool,
  diffServerTools,
  findServerTool,
  listEveryServer,
  listManagerPrompts,
  listManagerTools,
  type McpPromptListing,
  type McpToolListing,
  type ProbeOptions,
  probeServer,
  promptArguments,
  readResourceOutput,
  type Tool,
  type ToolDiff,
} from "../mcp/mod.ts";
import { type EventSink, TrellisError, UsageError } from "../shared/mod.ts";
import type { ToolResult } from "../shared/mod.ts";
import type { McpCommandRuntime } from "./mcp_command.ts";

/**
 * What the `trellis mcp` debugging commands do on a running command runtime (issue #26 item 2):
 * each function is one command's work, so lib/cli parses, calls one of these and prints.
 */

/** A listing that leaves out a failing server names it here (the command fails after printing). */
export interface ServerFailure {
  server: string;
  error: string;
}

/** `mcp tools`: each selected server's startup state and every tool as the model sees it. */
export interface McpToolsReport {
  servers: Record<string, unknown>[];
  tools: McpToolListing[];
}

export function mcpToolsReport(mcp: McpCommandRuntime): McpToolsReport {
  const manager = mcp.runtime.manager;
  const servers = [...manager.servers.values()].map(({ connection }) => ({
    server: connection.config.name,
    ...connection.status,
    ...(connection.status.state === "ready" ? { tools: connection.status.tools.length } : {}),
  }));
  return { servers, tools: listManagerTools(manager) };
}

/**
 * `mcp call SERVER TOOL --args JSON`: the server's own tool name first, then the name the model
 * sees (`mcp__server__tool`); the same filter, pin and timeout checks as a model's call.
 */
export async function callMcpTool(
  mcp: McpCommandRuntime,
  call: { server: string; tool: string; args: Record<string, unknown>; events: EventSink },
): Promise<ToolResult> {
  const manager = mcp.runtime.manager;
  const raw = findServerTool(manager, call.server, call.tool) ?? call.tool;
  return await callManagerTool(
    manager,
    { server: call.server, tool: raw, args: call.args },
    { callId: "cli", signal: new AbortController().signal },
    // A person asked for this output: no model context budget cuts it.
    { events: call.events, budgetBytes: Number.MAX_SAFE_INTEGER },
  );
}

/** `mcp resources` / `mcp templates`: every page of every server that offers them. */
export async function listMcpResources(
  mcp: McpCommandRuntime,
  kind: "resources" | "templates",
): Promise<{ items: Record<string, unknown>[]; failures: ServerFailure[] }> {
  return await listEveryServer(mcp.runtime.manager, kind);
}

/** `mcp prompts`: every ready server's prompts with the names a prompt mentions them by. */
export async function listMcpPrompts(
  mcp: McpCommandRuntime,
): Promise<{ prompts: McpPromptListing[]; failures: ServerFailure[] }> {
  return await listManagerPrompts(mcp.runtime.manager);
}

/** `mcp read SERVER URI`: one resource's contents. */
export async function readMcpResource(mcp: McpCommandRuntime, server: string, uri: string): Promise<unknown> {
  return await readResourceOutput(mcp.runtime.manager, server, uri);
}

/** `mcp diff NAME`: how a server's live tools differ from their pins. */
export function mcpPinDiff(
  mcp: McpCommandRuntime,
  server: string,
): { pinned: boolean; tools: Tool[]; diffs: ToolDiff[] } {
  const tools = liveTools(mcp, server);
  return { pinned: mcp.pins.hasServer(server), tools, diffs: diffServerTools(mcp.pins, server, tools) };
}

/** `mcp trust NAME [TOOL]`: pins the server's current definitions (all, or one tool). */
export async function trustMcpTools(
  mcp: McpCommandRuntime,
  server: string,
  tool?: string,
): Promise<{ written: string[]; accepted: string[]; file: string }> {
  const tools = liveTools(mcp, server);
  const chosen = tool === undefined ? tools : tools.filter((t) => t.name === tool);
  if (tool !== undefined && chosen.length === 0) {
    throw new UsageError(`MCP server '${server}' has no tool named '${tool}'.`, { server, field: tool });
  }
  const states = new Map(chosen.map((t) => [t.name, mcp.pins.stateOf(server, t)]));
  const written = await mcp.pins.record(server, chosen, { firstUse: false });
  const accepted = written.filter((t) => states.get(t) === "new" || states.get(t) === "changed");
  return { written, accepted, file: mcp.pins.file };
}

function liveTools(mcp: McpCommandRuntime, server: string): Tool[] {
  const status: { state: string; tools?: Tool[]; error?: string } =
    mcp.runtime.manager.servers.get(server)!.connection.status;
  if (status.state !== "ready" || !status.tools) {
    throw new UsageError(
      `Cannot read the tools of MCP server '${server}': ${status.error ?? `it is ${status.state}`}`,
      { server },
      "mcp_protocol",
    );
  }
  return status.tools;
}

/**
 * `mcp probe URL`: connects to a streamable HTTP server, lists (and with `callAll` calls) what it
 * offers. A protocol failure that is not Trellis's own typed error becomes one naming the URL.
 */
export async function probeMcpUrl(url: string, options: ProbeOptions): Promise<{ failures: number }> {
  try {
    new URL(url);
  } catch {
    throw new UsageError(`Cannot probe "${url}": not a URL`, { field: "url" });
  }
  try {
    return await probeServer(url, options);
  } catch (error) {
    if (error instanceof TrellisError) throw error;
    throw new TrellisError("mcp_protocol", `Cannot probe "${url}": ${(error as Error).message}`, {});
  }
}

/**
 * Why a `/mcp__server__prompt args` mention cannot be sent (a required argument missing, words
 * past the last argument), or null when it can.
 */
export function mcpPromptMentionError(prompt: McpPromptListing, text: string): string | null {
  const parsed = promptArguments(prompt, text);
  return "error" in parsed ? parsed.error : null;
}
