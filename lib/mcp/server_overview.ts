import type { ConnectionManager } from "./connection_manager.ts";
import { listManagerTools } from "./mcp_tools.ts";
import type { ServerStatus } from "./server_connection.ts";
import type { PinningMode, PinState } from "./tool_pins.ts";

/**
 * One server of a running session as `/mcp` shows it (#21 item 6): its state, how it is reached,
 * whose file declared it, and its tools against their pins, from the same verdicts
 * `trellis mcp tools --json` reports per tool (listManagerTools).
 */
export interface McpServerOverview {
  name: string;
  state: ServerStatus["state"];
  error?: string;
  transport: "stdio" | "streamable_http" | "sse";
  /** Whose file declared it: "trellis", "codex" or "claude". */
  origin: string;
  plugin?: string;
  pinning: PinningMode;
  /** Tools the server lists (0 unless ready). */
  tools: number;
  /** Of those, what the model is offered (visible, allowed by the filters, not withheld). */
  offered: number;
  /** Tools pinning keeps from the model (new or changed since pinned, under `block`). */
  withheld: { tool: string; pin: PinState }[];
  /** Tools new or changed since pinned but still offered (`warn`). */
  changed: { tool: string; pin: PinState }[];
  /** Whether the server's tools have ever been pinned (false: first use, or pinning off). */
  pinned: boolean;
}

export function mcpServerOverview(manager: ConnectionManager): McpServerOverview[] {
  const listing = listManagerTools(manager);
  return [...manager.servers.values()].map(({ registration, connection }) => {
    const config = registration.config;
    const status = connection.status;
    const tools = listing.filter((t) => t.server === config.name);
    return {
      name: config.name,
      state: status.state,
      ...(status.state === "failed" ? { error: status.error } : {}),
      transport: config.transport.type,
      origin: registration.origin ?? "trellis",
      ...(registration.plugin ? { plugin: registration.plugin.id } : {}),
      pinning: config.toolPinning ?? "warn",
      tools: tools.length,
      offered: tools.filter((t) => t.model).length,
      withheld: tools.filter((t) => t.withheld).map((t) => ({ tool: t.tool, pin: t.pin })),
      changed: tools.filter((t) => !t.withheld && (t.pin === "new" || t.pin === "changed"))
        .map((t) => ({ tool: t.tool, pin: t.pin })),
      pinned: tools.some((t) => t.pin !== "unpinned"),
    };
  }).sort((a, b) => a.name < b.name ? -1 : 1);
}
