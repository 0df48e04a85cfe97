import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, errorDiagnostic, memo, warning, z } from "../shared/mod.ts";
import {
  DEFAULT_SAMPLING_MAX_TOKENS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  type McpServerConfig,
  type McpTransportConfig,
} from "./server_config.ts";

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

const stdioEntry = memo(() =>
  z.object({
    type: z.optional(z.literal("stdio")),
    command: z.string().check(z.minLength(1)),
    args: z.optional(z.array(z.string())),
    env: z.optional(z.record(z.string(), z.string())),
  })
);
const remoteEntry = memo(() =>
  z.object({
    type: z.enum(["http", "sse"]),
    url: z.string().check(z.minLength(1)),
    headers: z.optional(z.record(z.string(), z.string())),
  })
);
const entrySchema = memo(() => z.union([stdioEntry(), remoteEntry()]));

/** Claude Code's `${VAR}` / `${VAR:-default}`; an unset variable without a default is an error. */
export function expandVariables(text: string, env: (name: string) => string | undefined): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_m, name: string, fallback?: string) => {
      const value = env(name);
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      throw new Error(`environment variable ${name} is not set and has no default`);
    },
  );
}

/** Parses `.mcp.json` text into server configs; each bad entry is a diagnostic, never the whole file. */
export function parseMcpJson(
  text: string,
  options: { file: string; env: (name: string) => string | undefined },
): { servers: McpServerConfig[]; diagnostics: Diagnostic[] } {
  const { file } = options;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      servers: [],
      diagnostics: [errorDiagnostic(`Cannot parse "${file}": ${(error as Error).message}`, { file })],
    };
  }
  const servers = (raw as { mcpServers?: unknown } | null)?.mcpServers;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    return { servers: [], diagnostics: [warning(`Cannot read "${file}": no "mcpServers" object`, { file })] };
  }
  const result: McpServerConfig[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const where = { file, subject: name, field: `mcpServers.${name}` };
    if (!SERVER_NAME.test(name)) {
      diagnostics.push(
        errorDiagnostic(`Cannot load MCP server "${name}" from ${file}: invalid server name`, where),
      );
      continue;
    }
    const parsed = entrySchema().safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      diagnostics.push(
        errorDiagnostic(`Cannot load MCP server "${name}" from ${file}: ${issue.message}`, where),
      );
      continue;
    }
    try {
      result.push(configFromEntry(name, parsed.data, options.env));
    } catch (error) {
      diagnostics.push(
        errorDiagnostic(`Cannot load MCP server "${name}" from ${file}: ${(error as Error).message}`, where),
      );
    }
  }
  return { servers: result, diagnostics };
}

function configFromEntry(
  name: string,
  entry: z.infer<ReturnType<typeof entrySchema>>,
  env: (name: string) => string | undefined,
): McpServerConfig {
  const x = (s: string) => expandVariables(s, env);
  const mapValues = (m: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, x(v)]));
  const transport: McpTransportConfig = "command" in entry
    ? {
      type: "stdio",
      command: x(entry.command),
      args: (entry.args ?? []).map(x),
      env: mapValues(entry.env),
      envVars: [],
    }
    : entry.type === "sse"
    ? { type: "sse", url: x(entry.url), httpHeaders: mapValues(entry.headers) }
    : {
      type: "streamable_http",
      url: x(entry.url),
      httpHeaders: mapValues(entry.headers),
      envHttpHeaders: {},
    };
  return {
    name,
    transport,
    enabled: true,
    required: false,
    startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
    toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    disabledTools: [],
    defaultApprovalMode: "auto",
    toolApprovalModes: {},
    supportsParallelToolCalls: false,
    scopes: [],
    environmentId: "local",
    sampling: "prompt",
    samplingMaxTokens: DEFAULT_SAMPLING_MAX_TOKENS,
  };
}

/** Reads `<projectRoot>/.mcp.json`; absent → nothing. */
export function readMcpJson(
  fs: FileSystem,
  projectRoot: string,
  env: (name: string) => string | undefined,
): { servers: McpServerConfig[]; diagnostics: Diagnostic[]; file: string } {
  const file = path.join(projectRoot, ".mcp.json");
  let text: string;
  try {
    text = fs.sync.readTextFile(file); // read at every session start; usually absent
  } catch {
    return { servers: [], diagnostics: [], file };
  }
  return { ...parseMcpJson(text, { file, env }), file };
}
