import type { Tool } from "./_sdk.ts";
import type { ToolDefinition } from "../shared/mod.ts";
import { TrellisError } from "../shared/mod.ts";
import type { ConnectionManager, ManagedServer } from "./connection_manager.ts";
import { callManagerTool, type CallOptions } from "./tool_call.ts";
import { assignToolNames, toolIdentityKey } from "./tool_names.ts";
import { toolFingerprint } from "./tool_fingerprint.ts";
import { compactSchema } from "./schema_compact.ts";
import { pinVerdict } from "./tool_pin_policy.ts";
import type { PinState } from "./tool_pins.ts";
import { toolAllowed, toolApprovalMode, toolVisibleToModel } from "./tool_policy.ts";

export { callManagerTool } from "./tool_call.ts";
export type { CallOptions } from "./tool_call.ts";

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
  /** Issue #17: the definition against its pin (`unpinned`: the server was never pinned). */
  pin: PinState;
  /** Pinning blocks it (new or changed under `block`): not offered, calls refused. */
  withheld: boolean;
  /** What the model is offered: visible, allowed and not withheld. */
  model: boolean;
  /** `execution.taskSupport` when the server declares it (MCP 2025-11-25 tasks). */
  taskSupport?: string;
  /** The definition's fingerprint (only when pins are checked). */
  sha256?: string;
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
  const pins = manager.pins;
  return entries.map(({ managed, tool }) => {
    const config = managed.registration.config;
    const visible = toolVisibleToModel(tool._meta as Record<string, unknown> | undefined);
    const allowed = toolAllowed(config, tool.name);
    const verdict = pins ? pinVerdict(pins, config, tool) : undefined;
    const withheld = verdict?.withheld ?? false;
    const taskSupport = (tool as { execution?: { taskSupport?: string } }).execution?.taskSupport;
    return {
      server: config.name,
      tool: tool.name,
      modelName: names.get(toolIdentityKey(config.name, tool.name))!,
      description: tool.description ?? tool.title ?? "",
      inputSchema: tool.inputSchema as Record<string, unknown>,
      visible,
      allowed,
      approvalMode: toolApprovalMode(config, tool.name),
      plugin: managed.registration.plugin?.id,
      pin: verdict?.state ?? "unpinned",
      withheld,
      model: visible && allowed && !withheld,
      ...(pins ? { sha256: toolFingerprint(tool) } : {}),
      ...(taskSupport ? { taskSupport } : {}),
    };
  }).sort((a, b) => a.modelName < b.modelName ? -1 : 1);
}

/**
 * A tool of one server by the server's own name or by its model-facing `mcp__server__tool` name;
 * undefined when neither matches.
 */
export function findServerTool(manager: ConnectionManager, server: string, name: string): string | undefined {
  const status = manager.servers.get(server)?.connection.status;
  if (status?.state !== "ready") return undefined;
  if (status.tools.some((t) => t.name === name)) return name;
  return listManagerTools(manager).find((t) => t.server === server && t.modelName === name)?.tool;
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
  listing: McpToolListing[] = listManagerTools(manager),
): ToolDefinition[] {
  return listing.filter((t) => t.model).map((t) => {
    const managed = manager.servers.get(t.server)!;
    const parallel = managed.registration.config.supportsParallelToolCalls;
    return {
      name: t.modelName,
      hookName: t.modelName,
      hookAliases: [],
      description: t.description,
      // #21 item 15: without unreferenced $defs and what no model reads; `mcp tools` shows it verbatim.
      parameters: compactSchema(t.inputSchema),
      parallel,
      source: { kind: "mcp", server: t.server, tool: t.tool, ...(t.plugin ? { plugin: t.plugin } : {}) },
      approval: () =>
        mcpApprovalNeeded(t.approvalMode, options.approvalPolicy)
          ? {
            kind: "required",
            reason: `MCP tool '${t.tool}' of server '${t.server}' needs approval`,
            policyOnly: true,
          }
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
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new TrellisError("tool_arguments", "arguments must be a JSON object", { field: "arguments" });
  }
  return value as Record<string, unknown>;
}
