import type { TrellisConfig } from "../config/mod.ts";
import type { PinningMode } from "./tool_pins.ts";

/** One `[mcp_servers.<name>]` table as the config schema validated it. */
export type McpServerTable = NonNullable<TrellisConfig["mcp_servers"]>[string];

export type ApprovalMode = "auto" | "prompt" | "approve";

export type McpTransportConfig =
  | {
    type: "stdio";
    command: string;
    args: string[];
    env: Record<string, string>;
    /** Names of parent variables passed through on top of the allow-list. */
    envVars: string[];
    cwd?: string;
  }
  | {
    type: "streamable_http";
    url: string;
    bearerTokenEnvVar?: string;
    httpHeaders: Record<string, string>;
    /** header → environment variable holding its value. */
    envHttpHeaders: Record<string, string>;
  }
  | { type: "sse"; url: string; httpHeaders: Record<string, string> };

/** A server's long-lived settings (MCP-3: never tokens or auth state). */
export interface McpServerConfig {
  name: string;
  transport: McpTransportConfig;
  enabled: boolean;
  required: boolean;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** Hard cap on one call whatever progress it reports (`tool_max_sec`; absent: 1 h). */
  toolMaxMs?: number;
  /** Allow-list on raw tool names (applied first); undefined = all. */
  enabledTools?: string[];
  /** Deny-list on raw tool names (applied second). */
  disabledTools: string[];
  defaultApprovalMode: ApprovalMode;
  toolApprovalModes: Record<string, ApprovalMode>;
  supportsParallelToolCalls: boolean;
  scopes: string[];
  oauthClientId?: string;
  oauthResource?: string;
  /** MCP-16: "local" unless the config names another environment. */
  environmentId: string;
  /** Whether the server may ask the session's model for completions (default "prompt"). */
  sampling: SamplingPolicy;
  /** Tokens the server may spend on sampling over the runtime's life (default 10 000). */
  samplingMaxTokens: number;
  /**
   * `mcp_tool_pinning` as it applies to this server (issue #17); resolved from the layers a project
   * cannot write and the server's origin by mcpServersFromConfig. Absent: `warn`.
   */
  toolPinning?: PinningMode;
  /** The bwrap profile a stdio server runs in (#17 item 2); absent: `sandbox = "none"`. */
  sandbox?: McpSandbox;
  /**
   * Why this server may not start (`mcp_require_sandbox` and no profile), set by
   * mcpServersFromConfig; the connection fails with it, naming the key to set.
   */
  sandboxRefusal?: string;
  /** A plugin server's plugin root: readable in its sandbox whatever masks apply. */
  installRoot?: string;
}

/** `sandbox`, `sandbox_network`, `sandbox_writable` of one stdio server (paths as written). */
export interface McpSandbox {
  mode: "read-only" | "workspace-write";
  network: boolean;
  /** As written: relative to the server's cwd, `~/` for $HOME. */
  writable: string[];
  /**
   * Set when `writable` is the project's or the plugin's own, not from the user's layers (#20 item
   * 11): at start an entry that resolves outside the workspace and `dataDir` (a plugin's data
   * directory) is dropped, with one warning naming the server and the path.
   */
  writableClamp?: {
    owner: "project" | "plugin";
    dataDir?: string;
    /** Where the user would grant a wider path, for the warning. */
    grant: string;
  };
}

export type SamplingPolicy = "deny" | "prompt" | "allow";

export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;
export const DEFAULT_SAMPLING_MAX_TOKENS = 10_000;
export const DEFAULT_TOOL_MAX_MS = 3_600_000;

/** Normalizes a validated Codex-shape table (the schema already rejected bad transports). */
export function serverConfigFromTable(name: string, table: McpServerTable): McpServerConfig {
  const startupMs = table.startup_timeout_sec !== undefined
    ? table.startup_timeout_sec * 1000
    : table.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS;
  return {
    name,
    transport: transportFromTable(table),
    enabled: table.enabled ?? true,
    required: table.required ?? false,
    startupTimeoutMs: startupMs,
    toolTimeoutMs: table.tool_timeout_sec !== undefined
      ? table.tool_timeout_sec * 1000
      : DEFAULT_TOOL_TIMEOUT_MS,
    toolMaxMs: table.tool_max_sec !== undefined ? table.tool_max_sec * 1000 : DEFAULT_TOOL_MAX_MS,
    enabledTools: table.enabled_tools,
    disabledTools: table.disabled_tools ?? [],
    defaultApprovalMode: table.default_tools_approval_mode ?? "auto",
    toolApprovalModes: Object.fromEntries(
      Object.entries(table.tools ?? {}).flatMap(([tool, t]) =>
        t.approval_mode ? [[tool, t.approval_mode]] : []
      ),
    ),
    supportsParallelToolCalls: table.supports_parallel_tool_calls ?? false,
    scopes: table.scopes ?? [],
    oauthClientId: table.oauth?.client_id,
    oauthResource: table.oauth_resource,
    environmentId: table.experimental_environment ?? "local",
    sampling: table.sampling ?? "prompt",
    samplingMaxTokens: table.sampling_max_tokens ?? DEFAULT_SAMPLING_MAX_TOKENS,
    ...sandboxFromTable(table),
  };
}

function sandboxFromTable(table: McpServerTable): { sandbox?: McpSandbox } {
  const mode = table.sandbox ?? "none";
  if (mode === "none" || table.command === undefined) return {};
  return {
    sandbox: { mode, network: table.sandbox_network ?? false, writable: table.sandbox_writable ?? [] },
  };
}

function transportFromTable(table: McpServerTable): McpTransportConfig {
  if (table.command !== undefined) {
    return {
      type: "stdio",
      command: table.command,
      args: table.args ?? [],
      env: table.env ?? {},
      // Remote-sourced variables belong to a remote environment; locally only names matter.
      envVars: (table.env_vars ?? []).map((v) => typeof v === "string" ? v : v.name),
      cwd: table.cwd,
    };
  }
  return {
    type: "streamable_http",
    url: table.url!,
    bearerTokenEnvVar: table.bearer_token_env_var,
    httpHeaders: table.http_headers ?? {},
    envHttpHeaders: table.env_http_headers ?? {},
  };
}

/** A stable string of what decides whether a running client can be reused (MCP-8 identity). */
export function connectionIdentity(config: McpServerConfig, cwd: string): string {
  return JSON.stringify({
    transport: config.transport,
    environment: config.environmentId,
    cwd: config.transport.type === "stdio" ? config.transport.cwd ?? cwd : undefined,
    oauth: [config.oauthClientId, config.oauthResource, config.scopes],
    // Decides whether the sampling capability is advertised at initialize.
    sampling: config.sampling === "deny",
    sandbox: [config.sandbox, config.sandboxRefusal],
  });
}
