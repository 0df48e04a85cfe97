import type { McpRegistration } from "./catalog.ts";
import { DEFAULT_TOOL_MAX_MS } from "./server_config.ts";

/** `trellis mcp list --json` entry (Codex's shape plus where the server came from). */
export interface McpServerSummary {
  name: string;
  enabled: boolean;
  required: boolean;
  transport:
    | {
      type: "stdio";
      command: string;
      args: string[];
      env: Record<string, string>;
      env_vars: string[];
      cwd: string | null;
    }
    | {
      type: "streamable_http" | "sse";
      url: string;
      bearer_token_env_var: string | null;
      http_headers: Record<string, string>;
      env_http_headers: Record<string, string>;
    };
  startup_timeout_sec: number;
  tool_timeout_sec: number;
  /** Hard cap per call (issue #13). */
  tool_max_sec: number;
  /** The pinning mode that applies to this server (issue #17). */
  mcp_tool_pinning: "block" | "warn" | "off";
  auth_status: "unsupported" | "bearer_token" | "not_logged_in" | "oauth";
  enabled_tools: string[] | null;
  disabled_tools: string[];
  tier: string;
  source: string;
  /** Whose file declared it: "trellis", "codex" or "claude". */
  origin: string;
  plugin: string | null;
  /** The Trellis config file whose bare `enabled` switched this server from elsewhere (else null). */
  switched_by: string | null;
}

export function summarizeServer(registration: McpRegistration, enabled: boolean): McpServerSummary {
  const c = registration.config;
  const t = c.transport;
  const transport: McpServerSummary["transport"] = t.type === "stdio"
    ? { type: "stdio", command: t.command, args: t.args, env: t.env, env_vars: t.envVars, cwd: t.cwd ?? null }
    : {
      type: t.type,
      url: t.url,
      bearer_token_env_var: t.type === "streamable_http" ? t.bearerTokenEnvVar ?? null : null,
      http_headers: t.httpHeaders,
      env_http_headers: t.type === "streamable_http" ? t.envHttpHeaders : {},
    };
  return {
    name: c.name,
    enabled,
    required: c.required,
    transport,
    startup_timeout_sec: c.startupTimeoutMs / 1000,
    tool_timeout_sec: c.toolTimeoutMs / 1000,
    tool_max_sec: (c.toolMaxMs ?? DEFAULT_TOOL_MAX_MS) / 1000,
    mcp_tool_pinning: c.toolPinning ?? "warn",
    auth_status: t.type === "stdio"
      ? "unsupported"
      : transport.type !== "stdio" && transport.bearer_token_env_var
      ? "bearer_token"
      : "not_logged_in",
    enabled_tools: c.enabledTools ?? null,
    disabled_tools: c.disabledTools,
    tier: registration.tier,
    source: registration.source,
    origin: registration.origin ?? "trellis",
    plugin: registration.plugin?.id ?? null,
    switched_by: registration.switchedBy ?? null,
  };
}
