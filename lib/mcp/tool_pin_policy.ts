import type { Tool } from "./_sdk.ts";
import type { McpServerConfig } from "./server_config.ts";
import type { PinningMode, PinState, ToolPins } from "./tool_pins.ts";

/**
 * A server-chosen name as it may appear in a message a terminal shows: control characters (an
 * escape sequence in a hostile tool name) become visible `\u001b` escapes.
 */
export function visibleName(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export interface PinVerdict {
  state: PinState;
  mode: PinningMode;
  /** `block` and the definition is new or changed: the model never sees it, a call is refused. */
  withheld: boolean;
  /** What a refused call answers (empty unless withheld). */
  message: string;
}

/** The server's pinning mode: its own setting, else `warn` (the app resolves defaults by origin). */
export function pinningMode(config: McpServerConfig): PinningMode {
  return config.toolPinning ?? "warn";
}

/** Issue #17: how one tool's definition stands against its pin under the server's mode. */
export function pinVerdict(pins: ToolPins, config: McpServerConfig, tool: Tool): PinVerdict {
  const mode = pinningMode(config);
  const state = pins.stateOf(config.name, tool);
  const withheld = mode === "block" && (state === "new" || state === "changed");
  return {
    state,
    mode,
    withheld,
    message: withheld
      ? `MCP tool '${visibleName(tool.name)}' of server '${config.name}' is withheld: its definition is ` +
        `${state} since the server's tools were pinned (review with \`trellis mcp diff ${config.name}\`, ` +
        `accept with \`trellis mcp trust ${config.name} ${visibleName(tool.name)}\`)`
      : "",
  };
}

/** One warning per server naming the tools that are new or changed, and what was done with them. */
export function pinWarning(
  server: string,
  mode: PinningMode,
  tools: { tool: string; state: PinState }[],
): string {
  const list = tools.map((t) => `${visibleName(t.tool)} (${t.state})`).join(", ");
  const what = mode === "block"
    ? "withheld from the model"
    : 'offered to the model anyway (mcp_tool_pinning = "warn")';
  return `MCP server '${server}': tool definitions differ from the pinned ones: ${list}; ${what}. ` +
    `Review with \`trellis mcp diff ${server}\`, accept with \`trellis mcp trust ${server}\`.`;
}
