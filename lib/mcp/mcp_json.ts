import * as path from "node:path";
import { isTable, mcpServerFieldNames, parseConfigTable } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, errorDiagnostic, parseJsonText, warning } from "../shared/mod.ts";
import { type McpServerConfig, serverConfigFromTable } from "./server_config.ts";
import { isValidServerName, transportType } from "./transport_rules.ts";

/**
 * The one reader of MCP server entries written the way Claude Code and Codex users write them: a
 * project's `.mcp.json`, a plugin's `.mcp.json` or inline `mcpServers`, and `~/.claude.json`'s
 * `mcpServers`. An entry may use Claude Code's keys (`type` stdio/http/sse, `headers`) and Codex's
 * (`cwd`, `bearer_token_env_var`, `tool_timeout_sec`, …) — real marketplaces ship both. `${VAR}` and
 * `${VAR:-default}` are expanded in command, args, env, url, headers and cwd; a variable that is
 * unset without a default stays as written (as Claude Code leaves it) with a warning. Unknown keys
 * are dropped with one note per file. Each entry is then validated by the config schema's transport
 * rules, so every source gets the same checks and messages.
 */

export interface McpEntryOptions {
  /** Where the entries were declared, for messages (`/p/.mcp.json`, `plugin x@y: .mcp.json`). */
  file: string;
  /** Variable lookup for `${VAR}` (plugins put PLUGIN_ROOT and friends in front of the process env). */
  env: (name: string) => string | undefined;
  /** A relative `cwd` resolves against this directory. */
  baseDir?: string;
  /** Fields laid over each entry before validation (a user's policy overrides of a plugin server). */
  overrides?: (name: string) => Record<string, unknown> | undefined;
  /** Expand `${VAR}` (default true, as Claude Code does); false for Codex's config.toml, which does not. */
  expand?: boolean;
}

export interface McpEntriesRead {
  servers: McpServerConfig[];
  diagnostics: Diagnostic[];
  /**
   * Entries that could not be read (a wrong type/command/url combination, …): listed `failed` by
   * `mcp list`, as a broken `[mcp_servers.X]` in config.toml is (issue #21 item 10).
   */
  failed: { name: string; error: string }[];
}

/** Keys whose strings are expanded, as in Claude Code (plus cwd, which Codex entries carry). */
const EXPANDED = ["command", "args", "env", "url", "headers", "http_headers", "cwd", "sandbox_writable"];

/** Claude Code's `${VAR}` / `${VAR:-default}`; an unset variable without a default is left as written. */
export function expandVariables(
  text: string,
  env: (name: string) => string | undefined,
  missing: Set<string> = new Set(),
): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (whole, name: string, fallback?: string) => {
      const value = env(name);
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return whole;
    },
  );
}

/** Reads a `{name: entry}` map; a broken entry is a diagnostic naming it, never the whole map. */
export function readMcpServerEntries(
  servers: Record<string, unknown>,
  options: McpEntryOptions,
): McpEntriesRead {
  const result: McpServerConfig[] = [];
  const diagnostics: Diagnostic[] = [];
  const ignored: string[] = [];
  const failed: McpEntriesRead["failed"] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const read = readMcpServerEntry(name, entry, options);
    diagnostics.push(...read.diagnostics);
    ignored.push(...read.ignoredKeys.map((k) => `${name}.${k}`));
    if (read.config) result.push(read.config);
    if (read.failure) failed.push({ name, error: read.failure });
  }
  if (ignored.length) {
    diagnostics.push({
      level: "info",
      message: `${options.file}: ignoring keys Trellis does not use: ${ignored.join(", ")}`,
      file: options.file,
    });
  }
  return { servers: result, diagnostics, failed };
}

/** One entry → a server config, or diagnostics saying why not (and which keys were dropped). */
export function readMcpServerEntry(
  name: string,
  entry: unknown,
  options: McpEntryOptions,
): { config?: McpServerConfig; diagnostics: Diagnostic[]; ignoredKeys: string[]; failure?: string } {
  const where = { file: options.file, subject: name, field: `mcpServers.${name}` };
  const fail = (why: string) => ({
    diagnostics: [errorDiagnostic(`Cannot load MCP server "${name}" from ${options.file}: ${why}`, where)],
    ignoredKeys: [],
    failure: why,
  });
  if (!isValidServerName(name)) return fail("invalid server name");
  if (!isTable(entry)) return fail("expected an object");
  const type = entry.type === undefined ? undefined : transportType(entry.type);
  if (entry.type !== undefined && !type) {
    return fail(`unknown type ${JSON.stringify(entry.type)} (expected stdio, http or sse)`);
  }
  // The declared type must agree with the fields (Claude Code refuses the same mismatches).
  if ((type === "http" || type === "sse") && entry.command !== undefined) {
    return fail(`command: command is not supported for type "${String(entry.type)}" (it needs url)`);
  }
  if ((type === "http" || type === "sse") && entry.url === undefined) {
    return fail(`url: type "${String(entry.type)}" needs url`);
  }
  if (type === "stdio" && entry.url !== undefined) {
    return fail(`url: url is not supported for type "stdio" (it needs command)`);
  }
  const { table, ignoredKeys, notes } = codexTable(entry);
  const missing = new Set<string>();
  for (const key of options.expand === false ? [] : EXPANDED) {
    if (table[key] !== undefined) table[key] = expandDeep(table[key], options.env, missing);
  }
  if (typeof table.cwd === "string" && options.baseDir) table.cwd = path.resolve(options.baseDir, table.cwd);
  Object.assign(table, options.overrides?.(name) ?? {});
  if (type === "sse") {
    for (const key of ["bearer_token_env_var", "env_http_headers"]) {
      if (table[key] !== undefined) notes.push(`${key} is not supported for sse; ignored`);
      delete table[key];
    }
  }
  // A bare `enabled` is a switch only in Trellis's own config.toml (over a server defined elsewhere);
  // here, where the entry is the definition, it still needs a transport.
  if (table.command === undefined && table.url === undefined) {
    return fail("command: invalid transport: set command (stdio) or url (streamable HTTP)");
  }
  const parsed = parseConfigTable({ mcp_servers: { [name]: table } });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = issue.path.slice(2).join(".");
    return fail(`${field ? `${field}: ` : ""}${issue.message}`);
  }
  const config = serverConfigFromTable(name, parsed.data.mcp_servers![name]);
  if (type === "sse" && config.transport.type === "streamable_http") {
    config.transport = { type: "sse", url: config.transport.url, httpHeaders: config.transport.httpHeaders };
  }
  const diagnostics: Diagnostic[] = notes.map((n) =>
    warning(`MCP server "${name}" in ${options.file}: ${n}`, where)
  );
  if (missing.size) {
    diagnostics.push(
      warning(
        `MCP server "${name}" in ${options.file}: ${[...missing].map((v) => `\${${v}}`).join(", ")} ${
          missing.size === 1 ? "is" : "are"
        } not set and ${missing.size === 1 ? "has" : "have"} no default; left as written`,
        where,
      ),
    );
  }
  return { config, diagnostics, ignoredKeys };
}

/** Claude Code keys onto Codex's table: `headers` → `http_headers`, `oauth.clientId` → `client_id`. */
export function codexTable(entry: Record<string, unknown>): {
  table: Record<string, unknown>;
  ignoredKeys: string[];
  notes: string[];
} {
  const known = mcpServerFieldNames();
  const table: Record<string, unknown> = {};
  const ignoredKeys: string[] = [];
  const notes: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (key === "type" || key === "headers") continue;
    if (key === "oauth" && isTable(value)) table.oauth = claudeOauth(value, notes);
    else if (known.has(key)) table[key] = value;
    else ignoredKeys.push(key);
  }
  if (entry.headers !== undefined) {
    const both = isTable(entry.headers) && (table.http_headers === undefined || isTable(table.http_headers));
    // Codex's own key wins a clash; a non-object is left for the schema to name.
    table.http_headers = both
      ? { ...entry.headers as object, ...table.http_headers as object }
      : entry.headers;
  }
  return { table, ignoredKeys, notes };
}

function claudeOauth(value: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "clientId" || key === "client_id") out.client_id = v;
    else notes.push(`oauth.${key} is not supported; ignored`);
  }
  return out;
}

function expandDeep(
  value: unknown,
  env: (name: string) => string | undefined,
  missing: Set<string>,
): unknown {
  if (typeof value === "string") return expandVariables(value, env, missing);
  if (Array.isArray(value)) return value.map((v) => expandDeep(v, env, missing));
  if (isTable(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandDeep(v, env, missing)]));
  }
  return value;
}

/**
 * A file's value → its server map: `{"mcpServers": {…}}`, or a bare `{name: entry}` map (real plugins
 * ship both). Anything else (an array, a string) is one warning naming the file.
 */
export function mcpServersOf(
  raw: unknown,
  file: string,
): { servers: Record<string, unknown>; diagnostics: Diagnostic[] } {
  if (!isTable(raw)) {
    const found = Array.isArray(raw) ? "an array" : raw === null ? "null" : `a ${typeof raw}`;
    return {
      servers: {},
      diagnostics: [
        warning(`Cannot read "${file}": expected an object of MCP servers, found ${found}`, { file }),
      ],
    };
  }
  if (raw.mcpServers !== undefined) {
    if (isTable(raw.mcpServers)) return { servers: raw.mcpServers, diagnostics: [] };
    return {
      servers: {},
      diagnostics: [warning(`Cannot read "${file}": "mcpServers" is not an object`, { file })],
    };
  }
  return { servers: raw, diagnostics: [] };
}

/** Parses `.mcp.json` text into server configs; each bad entry is a diagnostic, never the whole file. */
export function parseMcpJson(text: string, options: McpEntryOptions): McpEntriesRead {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return {
      servers: [],
      diagnostics: [
        errorDiagnostic(`Cannot parse "${options.file}": ${parsed.message}`, { file: options.file }),
      ],
      failed: [],
    };
  }
  const raw = parsed.value;
  const map = mcpServersOf(raw, options.file);
  const read = readMcpServerEntries(map.servers, options);
  return { ...read, diagnostics: [...map.diagnostics, ...read.diagnostics] };
}

/** Reads `<projectRoot>/.mcp.json`; absent → nothing. A relative `cwd` is the project's. */
export function readMcpJson(
  fs: FileSystem,
  projectRoot: string,
  env: (name: string) => string | undefined,
  approved?: ReadonlyMap<string, string>,
): McpEntriesRead & { file: string } {
  const file = path.join(projectRoot, ".mcp.json");
  let text: string | undefined;
  if (approved) {
    // A trusted project's file as checked against its trust record (#20); held back → no servers.
    text = approved.get(file);
    if (text === undefined) return { servers: [], diagnostics: [], failed: [], file };
  } else {
    try {
      text = fs.sync.readTextFile(file); // read at every session start; usually absent
    } catch {
      return { servers: [], diagnostics: [], failed: [], file };
    }
  }
  return { ...parseMcpJson(text, { file, env, baseDir: projectRoot }), file };
}
