import type { ApprovalMode, McpServerConfig } from "./server_config.ts";

/** MCP-5: allow-list first, deny-list second, on raw tool names. */
export function toolAllowed(config: McpServerConfig, tool: string): boolean {
  if (config.enabledTools && !config.enabledTools.includes(tool)) return false;
  return !config.disabledTools.includes(tool);
}

/** The text a forged call to a filtered tool gets (codex §4.3). */
export function toolDisabledMessage(server: string, tool: string): string {
  return `tool '${tool}' is disabled for MCP server '${server}'`;
}

/** MCP-11: no `_meta.ui.visibility` → visible; otherwise only when it lists "model". */
export function toolVisibleToModel(meta: Record<string, unknown> | undefined): boolean {
  const ui = meta?.ui as { visibility?: unknown } | undefined;
  if (!Array.isArray(ui?.visibility)) return true;
  return ui.visibility.includes("model");
}

export function toolApprovalMode(config: McpServerConfig, tool: string): ApprovalMode {
  return config.toolApprovalModes[tool] ?? config.defaultApprovalMode;
}
