import type { Tool } from "./_sdk.ts";
import type { EventSink, ToolDefinition, ToolResult, ToolRunContext } from "../shared/mod.ts";
import { convertCallResult } from "./call_result.ts";
import type { ConnectionManager, ManagedServer } from "./connection_manager.ts";
import { assignToolNames, toolIdentityKey } from "./tool_names.ts";
import { toolAllowed, toolApprovalMode, toolDisabledMessage, toolVisibleToModel } from "./tool_policy.ts";

/** One server tool as `trellis mcp tools` shows it: name, schema and the verdicts about it. */
export interface McpToolListing {
  server: string;
  tool: string;
  modelName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  visible: boolean;
  allowed: boolean;
  approvalMode: string;
  plugin?: string;
}

/** Every ready server's tools with their model-facing names (MCP-9/10), filtered ones included. */
export function listManagerTools(manager: ConnectionManager): McpToolListing[] {
  const entries: { managed: ManagedServer; tool: Tool }[] = [];
  for (const managed of manager.servers.values()) {
    const status = managed.connection.status;
    if (status.state === "ready") { for (const tool of status.tools) entries.push({ managed, tool }); }
  }
  const names = assignToolNames(
    entries.map((e) => ({ server: e.managed.registration.config.name, tool: e.tool.name })),
  );
  return entries.map(({ managed, tool }) => {
    const config = managed.registration.config;
    return {
      server: config.name,
      tool: tool.name,
      modelName: names.get(toolIdentityKey(config.name, tool.name))!,
      description: tool.description ?? tool.title ?? "",
      inputSchema: tool.inputSchema as Record<string, unknown>,
      visible: toolVisibleToModel(tool._meta as Record<string, unknown> | undefined),
      allowed: toolAllowed(config, tool.name),
      approvalMode: toolApprovalMode(config, tool.name),
      plugin: managed.registration.plugin?.id,
    };
  }).sort((a, b) => a.modelName < b.modelName ? -1 : 1);
}

export interface CallOptions {
  budgetBytes?: number;
  events: EventSink;
}

/**
 * Calls (server, raw tool) on this manager: filter re-checked (MCP-5), tool timeout with progress
 * resetting it, result converted. Never throws: failures are error outputs.
 */
export async function callManagerTool(
  manager: ConnectionManager,
  target: { server: string; tool: string; args: Record<string, unknown> },
  ctx: Pick<ToolRunContext, "signal" | "callId">,
  options: CallOptions,
): Promise<ToolResult> {
  const managed = manager.servers.get(target.server);
  if (!managed) return { output: `unknown MCP server '${target.server}'`, status: "error" };
  const config = managed.registration.config;
  if (!toolAllowed(config, target.tool)) {
    return { output: toolDisabledMessage(target.server, target.tool), status: "error" };
  }
  try {
    const client = await managed.connection.ready();
    const result = await client.callTool({ name: target.tool, arguments: target.args }, undefined, {
      signal: ctx.signal,
      timeout: config.toolTimeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: (p) =>
        options.events({
          type: "mcp.tool_progress",
          server: target.server,
          tool: target.tool,
          call_id: ctx.callId,
          progress: p.progress,
          ...(p.total !== undefined ? { total: p.total } : {}),
          ...(p.message !== undefined ? { message: p.message } : {}),
        }),
    });
    return convertCallResult(result, { budgetBytes: options.budgetBytes });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const status = ctx.signal.aborted ? "aborted" : "error";
    return { output: `MCP tool '${target.tool}' on server '${target.server}' failed: ${message}`, status };
  }
}

/**
 * Codex's approval modes: `prompt` always asks, `approve` never asks (pre-approved), and `auto`
 * follows the session's approval policy (asks only under `untrusted`).
 */
export function mcpApprovalNeeded(mode: string, approvalPolicy: string): boolean {
  return mode === "prompt" || (mode === "auto" && approvalPolicy === "untrusted");
}

/** The model-visible, allowed tools of a manager as loop ToolDefinitions. */
export function mcpToolDefinitions(
  manager: ConnectionManager,
  options: CallOptions & { approvalPolicy: string },
): ToolDefinition[] {
  return listManagerTools(manager).filter((t) => t.visible && t.allowed).map((t) => {
    const managed = manager.servers.get(t.server)!;
    const parallel = managed.registration.config.supportsParallelToolCalls;
    return {
      name: t.modelName,
      hookName: t.modelName,
      hookAliases: [],
      description: t.description,
      parameters: t.inputSchema,
      parallel,
      source: { kind: "mcp", server: t.server, tool: t.tool, ...(t.plugin ? { plugin: t.plugin } : {}) },
      approval: () =>
        mcpApprovalNeeded(t.approvalMode, options.approvalPolicy)
          ? { kind: "required", reason: `MCP tool '${t.tool}' of server '${t.server}' needs approval` }
          : { kind: "none" },
      parseArguments: (raw) => parseObjectArguments(raw),
      run: (args, ctx) =>
        callManagerTool(
          manager,
          { server: t.server, tool: t.tool, args: args as Record<string, unknown> },
          ctx,
          {
            ...options,
            events: ctx.emit,
          },
        ),
    } satisfies ToolDefinition;
  });
}

function parseObjectArguments(raw: unknown): Record<string, unknown> {
  const value = typeof raw === "string" ? (raw.trim() === "" ? {} : JSON.parse(raw)) : raw ?? {};
  if (typeof value !== "object" || Array.isArray(value)) throw new Error("arguments must be a JSON object");
  return value as Record<string, unknown>;
}
