import * as path from "node:path";
import { isTable, type LoadedConfig, parseConfigTable } from "../config/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { type Diagnostic, errorDiagnostic } from "../shared/mod.ts";
import { type McpRegistration, resolveCatalog, type ResolvedCatalog } from "./catalog.ts";
import { readMcpJson } from "./mcp_json.ts";
import { type McpServerConfig, type McpServerTable, serverConfigFromTable } from "./server_config.ts";

/** A server a plugin contributes (the plugins subsystem builds these; app hands them on). */
export interface PluginMcpServer {
  pluginId: string;
  pluginRoot: string;
  name: string;
  /** Raw Codex-shape server table from the plugin's .mcp.json or inline mcpServers. */
  config: unknown;
}

export interface McpServersFromConfigOptions {
  platform: Platform;
  pluginServers: PluginMcpServer[];
  /** The thread-selected plugin's servers (SelectedPlugin tier); default none. */
  selectedPluginServers?: PluginMcpServer[];
  /** Runtime extension servers (highest tier); default none. */
  extensionServers?: McpServerConfig[];
}

/** Builds the resolved catalog from config layers, a trusted `.mcp.json`, plugins and extensions. */
export function mcpServersFromConfig(
  loaded: LoadedConfig,
  options: McpServersFromConfigOptions,
): { catalog: ResolvedCatalog; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const registrations: McpRegistration[] = [];
  const overrides = pluginOverrides(loaded);
  for (
    const [tier, list] of [
      ["plugin", options.pluginServers],
      ["selected_plugin", options.selectedPluginServers ?? []],
    ] as const
  ) {
    for (const server of list) {
      const built = pluginRegistration(server, overrides[server.pluginId]?.[server.name]);
      if ("error" in built) diagnostics.push(built.error);
      else registrations.push({ ...built.registration, tier });
    }
  }
  if (loaded.projectTrusted) {
    const json = readMcpJson(options.platform.fs, loaded.paths.projectRoot, options.platform.env);
    diagnostics.push(...json.diagnostics);
    for (const config of json.servers) registrations.push({ tier: "config", source: json.file, config });
  }
  for (const [name, table] of Object.entries(loaded.config.mcp_servers ?? {})) {
    const source = loaded.provenance.get(`mcp_servers.${name}.command`) ??
      loaded.provenance.get(`mcp_servers.${name}.url`) ?? "config";
    registrations.push({ tier: "config", source, config: serverConfigFromTable(name, table) });
  }
  for (const config of options.extensionServers ?? []) {
    registrations.push({ tier: "extension", source: "extension", config });
  }
  const failed = loaded.invalidMcpServers.map((s) => ({ name: s.name, source: s.file, error: s.reason }));
  return { catalog: resolveCatalog(registrations, failed), diagnostics };
}

type PolicyOverride = Pick<
  McpServerTable,
  "enabled" | "default_tools_approval_mode" | "tools" | "enabled_tools" | "disabled_tools"
>;

/** `[plugins."<id>".mcp_servers.<name>]`: the only knobs a user may turn on a plugin's server. */
function pluginOverrides(loaded: LoadedConfig): Record<string, Record<string, PolicyOverride>> {
  const result: Record<string, Record<string, PolicyOverride>> = {};
  for (const [id, entry] of Object.entries(loaded.config.plugins ?? {})) {
    // The plugins schema owns this table; read it loosely so either side can evolve.
    const servers = isTable(entry) ? (entry as Record<string, unknown>).mcp_servers : undefined;
    if (!isTable(servers)) continue;
    result[id] = {};
    for (const [name, o] of Object.entries(servers)) {
      if (!isTable(o)) continue;
      const { enabled, default_tools_approval_mode, tools, enabled_tools, disabled_tools } =
        o as PolicyOverride;
      result[id][name] = { enabled, default_tools_approval_mode, tools, enabled_tools, disabled_tools };
    }
  }
  return result;
}

function pluginRegistration(
  server: PluginMcpServer,
  override: PolicyOverride | undefined,
): { registration: Omit<McpRegistration, "tier"> } | { error: Diagnostic } {
  const source = `plugin:${server.pluginId}`;
  const raw = expandPluginRoot(server.config, server.pluginRoot);
  const merged = { ...(isTable(raw) ? raw : {}), ...dropUndefined(override ?? {}) };
  const parsed = parseConfigTable({ mcp_servers: { [server.name]: merged } });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = issue.path.slice(2).join(".");
    return {
      error: errorDiagnostic(
        `Cannot load MCP server "${server.name}" of plugin ${server.pluginId}: ${
          field ? `${field}: ` : ""
        }${issue.message}`,
        { file: server.pluginRoot, subject: server.name, field },
      ),
    };
  }
  const config = serverConfigFromTable(server.name, parsed.data.mcp_servers![server.name]);
  if (config.transport.type === "stdio") {
    config.transport.cwd = path.resolve(server.pluginRoot, config.transport.cwd ?? ".");
  }
  return { registration: { source, config, plugin: { id: server.pluginId, root: server.pluginRoot } } };
}

function expandPluginRoot(value: unknown, root: string): unknown {
  if (typeof value === "string") return value.replaceAll("${CLAUDE_PLUGIN_ROOT}", root);
  if (Array.isArray(value)) return value.map((v) => expandPluginRoot(v, root));
  if (isTable(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandPluginRoot(v, root)]));
  }
  return value;
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
