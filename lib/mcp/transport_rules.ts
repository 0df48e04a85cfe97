import { MCP_SERVER_NAME, parseConfigTable, type TomlValue } from "../config/mod.ts";
import { UsageError } from "../shared/mod.ts";

/**
 * The transport rules every writer and reader of a server entry shares (issue #16 item 5): the
 * `type` words Claude Code and Codex users write, the server-name rule, and the `[mcp_servers]`
 * table `trellis mcp add` writes from its flags. config.toml (Codex's format) has stdio and
 * streamable HTTP only; SSE lives in `.mcp.json`. The config schema checks the fields per transport.
 */

/** A `type` as written in `.mcp.json` / `~/.claude.json` → the transport it names. */
export const TRANSPORT_TYPES: Readonly<Record<string, "stdio" | "http" | "sse">> = {
  stdio: "stdio",
  http: "http",
  streamable_http: "http",
  "streamable-http": "http",
  sse: "sse",
};

/** The transport a `type` value names, or undefined for a word no client uses. */
export function transportType(value: unknown): "stdio" | "http" | "sse" | undefined {
  return Object.hasOwn(TRANSPORT_TYPES, String(value)) ? TRANSPORT_TYPES[String(value)] : undefined;
}

/** Why an SSE server cannot go into config.toml, and where it can go instead. */
export const SSE_NOT_IN_CONFIG_TOML = "config.toml's [mcp_servers] (Codex's format) has no SSE transport";

/** True for a name config.toml accepts (`[A-Za-z0-9_-]+`): the one server-name rule, in lib/config. */
export function isValidServerName(name: string): boolean {
  return MCP_SERVER_NAME.test(name);
}

/** A UsageError naming the server when its name breaks the rule. */
export function checkServerName(name: string): void {
  if (!isValidServerName(name)) {
    throw new UsageError(`Cannot use MCP server name "${name}": use only letters, digits, "_" and "-"`, {
      server: name,
    });
  }
}

/** What `trellis mcp add` was given: a transport, a command or a URL, and their options. */
export interface ServerEntryFlags {
  transport?: string;
  /** After `--`: the command and its arguments (stdio), or the URL (http). */
  positional: string[];
  url?: string;
  /** `KEY=VALUE` pairs. */
  env?: string[];
  header?: string[];
  bearerTokenEnvVar?: string;
}

/** The `[mcp_servers.<name>]` table for these flags, checked by the same schema that will load it. */
export function serverEntryFromFlags(name: string, flags: ServerEntryFlags): Record<string, TomlValue> {
  checkServerName(name);
  const transport = flags.transport ?? (flags.url ? "http" : "stdio");
  if (!["stdio", "http", "sse"].includes(transport)) {
    throw new UsageError(`Cannot use --transport "${transport}": expected stdio, http or sse`, {
      field: "transport",
    });
  }
  if (transport === "sse") {
    throw new UsageError(
      `Cannot add MCP server '${name}' with --transport sse: ${SSE_NOT_IN_CONFIG_TOML}; declare it in ` +
        `the project's .mcp.json as {"type": "sse", "url": …}, ` +
        `or use --transport http if the server speaks streamable HTTP`,
      { server: name, field: "transport" },
    );
  }
  const entries = transport === "http" ? httpEntries(name, flags) : stdioEntries(flags);
  const parsed = parseConfigTable({ mcp_servers: { [name]: entries } });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new UsageError(`Cannot add MCP server '${name}': ${issue.message}`, {
      server: name,
      field: issue.path.slice(2).join("."),
    });
  }
  return entries;
}

function httpEntries(name: string, flags: ServerEntryFlags): Record<string, TomlValue> {
  if (flags.url && flags.positional.length > 0) {
    throw new UsageError("Cannot add an MCP server with both --url and a command", { server: name });
  }
  if (flags.positional.length > 1) {
    throw new UsageError(`Cannot add MCP server '${name}': an HTTP server takes one URL, not a command`, {
      server: name,
      field: "url",
    });
  }
  const url = flags.url ?? flags.positional[0];
  if (!url) {
    throw new UsageError("Cannot add an MCP server without a transport: give --url URL or -- COMMAND ARGS…");
  }
  checkUrl(name, url);
  if (flags.env) {
    throw new UsageError("Cannot use --env with --url: env is not supported for streamable_http", {
      field: "env",
    });
  }
  const entries: Record<string, TomlValue> = { url };
  if (flags.bearerTokenEnvVar) entries.bearer_token_env_var = flags.bearerTokenEnvVar;
  const headers = parsePairs(flags.header, "--header");
  if (Object.keys(headers).length) entries.http_headers = headers;
  return entries;
}

function stdioEntries(flags: ServerEntryFlags): Record<string, TomlValue> {
  const command = flags.positional;
  if (flags.url) throw new UsageError("Cannot add a stdio MCP server with --url", { field: "url" });
  if (command.length === 0) {
    throw new UsageError("Cannot add an MCP server without a transport: give --url URL or -- COMMAND ARGS…");
  }
  if (flags.bearerTokenEnvVar || flags.header) {
    throw new UsageError("Cannot use --bearer-token-env-var or --header with a stdio command", {
      field: "url",
    });
  }
  const entries: Record<string, TomlValue> = { command: command[0] };
  if (command.length > 1) entries.args = command.slice(1);
  const env = parsePairs(flags.env, "--env");
  if (Object.keys(env).length) entries.env = env;
  return entries;
}

function parsePairs(pairs: string[] | undefined, flag: string): Record<string, string> {
  return Object.fromEntries((pairs ?? []).map((pair) => {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`Cannot parse ${flag} "${pair}": expected KEY=VALUE`, { field: flag });
    return [pair.slice(0, eq), pair.slice(eq + 1)];
  }));
}

function checkUrl(name: string, url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") {
    throw new UsageError(`Cannot add MCP server '${name}': url "${url}" is not an http:// or https:// URL`, {
      server: name,
      field: "url",
    });
  }
}
