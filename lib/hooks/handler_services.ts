/**
 * What the non-command handler types need from outside the hooks subsystem (#24 item 2), supplied
 * by the composition root: a model for `prompt`, the subagent engine for `agent`, the connected MCP
 * servers for `mcp_tool`, and the user's URL allowlist for `http`. A missing service makes each such
 * run fail by name (a guard under `on_failure = "block"` then blocks), never skip silently.
 */
export interface HookServices {
  /** One model request; resolves to the answer's text. Throws on a model or transport error. */
  ask?(request: HookModelRequest): Promise<string>;
  /** A subagent with read-only tools answering `prompt`; resolves to its last message. */
  runAgent?(request: HookModelRequest & { cwd: string }): Promise<string>;
  /** Calls `tool` of the connected server `server`. */
  callMcpTool?(request: {
    server: string;
    tool: string;
    arguments: Record<string, unknown>;
    signal: AbortSignal;
  }): Promise<McpToolAnswer>;
  /**
   * `[hooks] allowed_http_hook_urls` of the user's own config; undefined when none is set (http hooks
   * then do not run).
   */
  httpAllowlist?: string[];
}

export interface HookModelRequest {
  /** Absent: the session's small/fast model. */
  model?: string;
  instructions: string;
  prompt: string;
  signal: AbortSignal;
}

export type McpToolAnswer =
  | { ok: true; text: string; isError: boolean }
  /** The server is not connected, or has no such tool. */
  | { ok: false; problem: string };
