import * as path from "node:path";
import { isTable, type LoadedConfig } from "../config/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import {
  type FailedRegistration,
  type McpRegistration,
  resolveCatalog,
  type ResolvedCatalog,
} from "./catalog.ts";
import { readMcpJson, readMcpServerEntry } from "./mcp_json.ts";
import { peerMcpServers } from "./peer_servers.ts";
import {
  type McpSandbox,
  type McpServerConfig,
  type McpServerTable,
  serverConfigFromTable,
} from "./server_config.ts";
import type { PinningMode } from "./tool_pins.ts";

/** A server a plugin contributes (the plugins subsystem builds these; app hands them on). */
export interface PluginMcpServer {
  pluginId: string;
  pluginRoot: string;
  /** The plugin's data dir, for `${PLUGIN_DATA}`; default: none. */
  dataDir?: string;
  /** Where it was declared, relative to the plugin root (`.mcp.json`, `plugin.json#mcpServers`). */
  file?: string;
  name: string;
  /** The entry as written (Claude Code or Codex keys), read by the one `.mcp.json` reader. */
  config: unknown;
  /** "claude" for a plugin Claude Code installed (read in place). */
  origin?: "claude";
}

export interface McpServersFromConfigOptions {
  platform: Platform;
  pluginServers: PluginMcpServer[];
  /** The thread-selected plugin's servers (SelectedPlugin tier); default none. */
  selectedPluginServers?: PluginMcpServer[];
  /**
   * Servers the client of this process passed in (an ACP editor's `mcpServers`, #25 item 1): the
   * highest tier, origin `acp`, with the same pinning and confinement rules as the user's own.
   */
  extensionServers?: McpServerConfig[];
}

/** Builds the resolved catalog from config layers, a trusted `.mcp.json`, plugins and extensions. */
export function mcpServersFromConfig(
  loaded: LoadedConfig,
  options: McpServersFromConfigOptions,
): { catalog: ResolvedCatalog; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const registrations: McpRegistration[] = [];
  const overrides = pluginOverrides(loaded, diagnostics);
  const unreadable: FailedRegistration[] = [];
  for (
    const [tier, list] of [
      ["plugin", options.pluginServers],
      ["selected_plugin", options.selectedPluginServers ?? []],
    ] as const
  ) {
    for (const server of list) {
      const built = pluginRegistration(server, overrides[server.pluginId]?.[server.name], options.platform);
      diagnostics.push(...built.diagnostics);
      if (built.registration) registrations.push({ ...built.registration, tier });
      if (built.failure) {
        unreadable.push({
          name: server.name,
          source: `plugin:${server.pluginId}`,
          error: built.failure,
          ...(server.origin ? { origin: server.origin } : {}),
        });
      }
    }
  }
  // Inside the config tier the last registration wins: Claude Code's and Codex's user files, the
  // project's .mcp.json, Claude Code's entries for this project, then Trellis's own config layers.
  const peers = peerMcpServers(options.platform.fs, loaded, options.platform.env);
  diagnostics.push(...peers.diagnostics);
  unreadable.push(...peers.failed);
  registrations.push(...peers.user);
  // What a repository chose (project layers, its .mcp.json): the default `mcp_tool_pinning` is
  // stricter for these (issue #17). Claude Code's entries for this project in ~/.claude.json are the
  // user's own writing (its "local" scope), though they load only for a trusted project.
  const projectSources = new Set(loaded.layers.filter((l) => l.kind === "project").map((l) => l.source));
  const fromProject = new Set<McpRegistration>();
  const mcpJsonFile = path.join(loaded.paths.projectRoot, ".mcp.json");
  if (loaded.projectTrusted) {
    const json = readMcpJson(
      options.platform.fs,
      loaded.paths.projectRoot,
      options.platform.env,
      loaded.projectLayers,
    );
    diagnostics.push(...json.diagnostics);
    for (const f of json.failed) {
      unreadable.push({ name: f.name, source: json.file, error: f.error, origin: "claude" });
    }
    for (const config of json.servers) {
      clampWritable(config, { owner: "project", grant: redefineHint(config.name) });
      const registration: McpRegistration = { tier: "config", source: json.file, origin: "claude", config };
      fromProject.add(registration);
      registrations.push(registration);
    }
  } else if (options.platform.fs.sync.lstat(mcpJsonFile)) {
    // Issue #13: an untrusted project's servers are skipped, never silently.
    diagnostics.push({
      level: "info",
      message: `Skipped ${mcpJsonFile}: this project is not trusted ` +
        "(run `trellis project trust` to start its MCP servers)",
      file: mcpJsonFile,
    });
  }
  registrations.push(...peers.project);
  for (const [name, table] of Object.entries(loaded.config.mcp_servers ?? {})) {
    if (table.command === undefined && table.url === undefined) {
      applySwitch(name, registrations, loaded, diagnostics);
      continue;
    }
    const source = loaded.provenance.get(`mcp_servers.${name}.command`) ??
      loaded.provenance.get(`mcp_servers.${name}.url`) ?? "config";
    const own = ownSandboxKeys(loaded, name, diagnostics);
    const config = serverConfigFromTable(name, { ...table, ...own });
    // No own layer set a sandbox key: the writable paths, if any, are a project layer's.
    if (Object.keys(own).length === 0) {
      clampWritable(config, {
        owner: "project",
        grant: `sandbox and sandbox_writable in [mcp_servers.${name}] in your config.toml`,
      });
    }
    registrations.push({ tier: "config", source, config });
  }
  for (const config of options.extensionServers ?? []) {
    registrations.push({ tier: "extension", source: "ACP client (session/new)", origin: "acp", config });
  }
  const pinning = pinningSettings(loaded, diagnostics);
  const requireSandbox = requireSandboxSetting(loaded, diagnostics);
  for (const registration of registrations) {
    const scope = registration.tier === "plugin" || registration.tier === "selected_plugin"
      ? "plugin"
      : fromProject.has(registration) || projectSources.has(registration.source) ||
          registration.source.startsWith("profile ")
      ? "project"
      : "user";
    registration.scope = scope;
    registration.config.toolPinning = pinning.servers[registration.config.name] ?? pinning.all ??
      (scope === "user" ? "warn" : "block");
    if (requireSandbox && scope !== "user") refuseUnconfined(registration, requireSandbox);
  }
  const failed = loaded.invalidMcpServers.map((s) => ({ name: s.name, source: s.file, error: s.reason }));
  // Duplicates are resolved here, after validation: a broken definition never took a name.
  const catalog = resolveCatalog(registrations, failed, unreadable);
  const peerFiles = new Set([...peers.user, ...peers.project].map((r) => r.source));
  const shadowed: Shadowed[] = [];
  for (const conflict of catalog.conflicts) {
    const losers = conflict.contenders.filter((c) => c !== conflict.outcome);
    // The same server kept in Claude Code's and Codex's files too is the usual case for someone
    // who uses all three (and for everyone right after `trellis import`): one note for them all, not a
    // line each at every start (#21 item 11). A clash among Trellis's own is a warning each.
    if (losers.every((l) => peerFiles.has(l))) {
      shadowed.push({ server: conflict.server, losers, outcome: conflict.outcome });
      continue;
    }
    diagnostics.push(warning(
      `MCP server "${conflict.server}" is defined more than once: using ${conflict.outcome}; ignoring ${
        losers.join(", ")
      }`,
      { subject: conflict.server },
    ));
  }
  if (shadowed.length > 0) diagnostics.push(shadowedNote(shadowed));
  return { catalog, diagnostics };
}

interface Shadowed {
  server: string;
  losers: string[];
  outcome: string;
}

/** One note for every server whose definitions in Codex's or Claude Code's files a later one replaces. */
function shadowedNote(shadowed: Shadowed[]): Diagnostic {
  const files = [...new Set(shadowed.flatMap((s) => s.losers))].join(", ");
  const used = [...new Set(shadowed.map((s) => s.outcome))].join(", ");
  const names = shadowed.map((s) => s.server).join(", ");
  return {
    level: "info",
    message: shadowed.length === 1
      ? `MCP server "${names}" is also defined in ${files}; using ${used}`
      : `${shadowed.length} MCP servers (${names}) are also defined in ${files}; using ${used}`,
    subject: names,
  };
}

/**
 * `[mcp_servers.X] enabled = false` alone in Trellis's config (the schema lets a table with only
 * `enabled` through): the server of that name defined elsewhere — Codex's or Claude Code's files, a
 * project's `.mcp.json`, a plugin — is switched off for Trellis only; their files are not touched
 * (issue #21 item 9). With no such server the switch names itself in a warning.
 */
function applySwitch(
  name: string,
  registrations: McpRegistration[],
  loaded: LoadedConfig,
  diagnostics: Diagnostic[],
): void {
  // Per layer, low → high: a repository may switch a server off, never on — the user's own off (or
  // the off in Codex's file) stands.
  let chosen: { enabled: boolean; file: string } | undefined;
  for (const layer of loaded.layers) {
    const enabled = layer.table.mcp_servers?.[name]?.enabled;
    if (enabled === undefined) continue;
    if (enabled && !isOwnLayer(layer.kind)) {
      diagnostics.push(warning(
        `Ignored [mcp_servers.${name}] enabled = true in ${layer.source}: only your own config may ` +
          "switch on a server defined elsewhere",
        { file: layer.source, subject: name },
      ));
      continue;
    }
    chosen = { enabled, file: layer.source };
  }
  if (!chosen) return;
  const targets = registrations.filter((r) => r.config.name === name);
  if (targets.length === 0) {
    diagnostics.push(warning(
      `[mcp_servers.${name}] in ${chosen.file} only sets enabled, and no MCP server "${name}" is defined ` +
        "elsewhere (a server of its own needs command or url)",
      { file: chosen.file, subject: name },
    ));
    return;
  }
  for (const registration of targets) {
    registration.config.enabled = chosen.enabled;
    registration.switchedBy = chosen.file;
  }
}

/**
 * `mcp_tool_pinning`, top-level and per `[mcp_servers.X]`, read only from the layers a repository
 * cannot write (system, user, `-c`): a project must not switch off the check on its own servers.
 */
function pinningSettings(
  loaded: LoadedConfig,
  diagnostics: Diagnostic[],
): { all?: PinningMode; servers: Record<string, PinningMode> } {
  const result: { all?: PinningMode; servers: Record<string, PinningMode> } = { servers: {} };
  for (const layer of loaded.layers) {
    const table = layer.table;
    const perServer = Object.entries(table.mcp_servers ?? {}).filter(([, t]) => t.mcp_tool_pinning);
    if (!isOwnLayer(layer.kind)) {
      if (table.mcp_tool_pinning || perServer.length > 0) {
        diagnostics.push({
          level: "warning",
          message: `Ignored mcp_tool_pinning in ${layer.source}: only your own config ` +
            "($TRELLIS_HOME/config.toml, /etc/trellis, -c) may set it",
          file: layer.source,
        });
      }
      continue;
    }
    if (table.mcp_tool_pinning) result.all = table.mcp_tool_pinning;
    for (const [name, t] of perServer) result.servers[name] = t.mcp_tool_pinning!;
  }
  return result;
}

type PolicyOverride = Pick<
  McpServerTable,
  | "enabled"
  | "default_tools_approval_mode"
  | "tools"
  | "enabled_tools"
  | "disabled_tools"
  | "sandbox"
  | "sandbox_network"
  | "sandbox_writable"
>;

/**
 * `[plugins."<id>".mcp_servers.<name>]`: the only knobs a user may turn on a plugin's server, read
 * only from the layers a repository cannot write (as `mcp_tool_pinning`, and as plugin enablement is):
 * a project must not loosen a plugin server's sandbox profile or approvals (#17 item 2). Per key, the
 * last own layer that sets it wins.
 */
function pluginOverrides(
  loaded: LoadedConfig,
  diagnostics: Diagnostic[],
): Record<string, Record<string, PolicyOverride>> {
  const result: Record<string, Record<string, PolicyOverride>> = {};
  for (const layer of loaded.layers) {
    for (const [id, entry] of Object.entries(layer.table.plugins ?? {})) {
      // The plugins schema owns this table; read it loosely so either side can evolve.
      const servers = isTable(entry) ? (entry as Record<string, unknown>).mcp_servers : undefined;
      if (!isTable(servers)) continue;
      if (!isOwnLayer(layer.kind)) {
        diagnostics.push(warning(
          `Ignored [plugins."${id}".mcp_servers] in ${layer.source}: only your own config ` +
            "($TRELLIS_HOME/config.toml, /etc/trellis, -c) may override a plugin's MCP servers",
          { file: layer.source, subject: id },
        ));
        continue;
      }
      result[id] ??= {};
      for (const [name, o] of Object.entries(servers)) {
        if (!isTable(o)) continue;
        const entry = o as PolicyOverride;
        result[id][name] = {
          ...result[id][name],
          ...dropUndefined({
            enabled: entry.enabled,
            default_tools_approval_mode: entry.default_tools_approval_mode,
            tools: entry.tools,
            enabled_tools: entry.enabled_tools,
            disabled_tools: entry.disabled_tools,
            sandbox: entry.sandbox,
            sandbox_network: entry.sandbox_network,
            sandbox_writable: entry.sandbox_writable,
          }),
        };
      }
    }
  }
  return result;
}

function pluginRegistration(
  server: PluginMcpServer,
  override: PolicyOverride | undefined,
  platform: Platform,
): { registration?: Omit<McpRegistration, "tier">; diagnostics: Diagnostic[]; failure?: string } {
  const source = `plugin:${server.pluginId}`;
  const vars: Record<string, string> = {
    PLUGIN_ROOT: server.pluginRoot,
    CLAUDE_PLUGIN_ROOT: server.pluginRoot,
  };
  if (server.dataDir) {
    Object.assign(vars, { PLUGIN_DATA: server.dataDir, CLAUDE_PLUGIN_DATA: server.dataDir });
  }
  const read = readMcpServerEntry(server.name, server.config, {
    file: `plugin ${server.pluginId}: ${server.file ?? ".mcp.json"}`,
    env: (name) => vars[name] ?? platform.env(name),
    baseDir: server.pluginRoot,
    overrides: () => dropUndefined(override ?? {}),
  });
  const diagnostics: Diagnostic[] = read.diagnostics.map((d) => ({ ...d, file: server.pluginRoot }));
  if (read.ignoredKeys.length) {
    diagnostics.push({
      level: "info",
      message: `plugin ${server.pluginId}: MCP server "${server.name}": ignoring keys Trellis does not use: ${
        read.ignoredKeys.join(", ")
      }`,
      subject: server.name,
    });
  }
  const config = read.config;
  if (!config) return { diagnostics, ...(read.failure ? { failure: read.failure } : {}) };
  if (config.transport.type === "stdio") {
    config.transport.cwd = path.resolve(server.pluginRoot, config.transport.cwd ?? ".");
  }
  config.installRoot = server.pluginRoot;
  if (override?.sandbox_writable === undefined) {
    clampWritable(config, {
      owner: "plugin",
      ...(server.dataDir ? { dataDir: server.dataDir } : {}),
      grant: `[plugins."${server.pluginId}".mcp_servers.${server.name}] sandbox_writable in your config.toml`,
    });
  }
  const origin = server.origin ? { origin: server.origin } : {};
  return {
    registration: { source, config, plugin: { id: server.pluginId, root: server.pluginRoot }, ...origin },
    diagnostics,
  };
}

/**
 * A project's or plugin's own `sandbox_writable` reaches no further than the workspace and the
 * plugin's data dir (#20 item 11): a profile a repository or plugin declares for itself is not one
 * the user wrote, so wider paths come only from the user's layers. Checked at start, on real paths.
 */
function clampWritable(config: McpServerConfig, clamp: NonNullable<McpSandbox["writableClamp"]>): void {
  if (config.sandbox && config.sandbox.writable.length > 0) config.sandbox.writableClamp = clamp;
}

const redefineHint = (name: string) =>
  `the server whole (command, args, sandbox and sandbox_writable) as [mcp_servers.${name}] in your config.toml`;

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The layers a repository cannot write: system, user, `-c`. */
const isOwnLayer = (kind: string) => kind === "system" || kind === "user" || kind === "session";

const SANDBOX_KEYS = ["sandbox", "sandbox_network", "sandbox_writable"] as const;

/**
 * A server's `sandbox*` keys as the user's own layers set them (system, user, `-c`): when any of
 * them sets one, a project layer's are ignored, so a repository can never loosen (or widen the
 * writable paths of) a profile the user chose for a server (#17 item 2).
 */
function ownSandboxKeys(
  loaded: LoadedConfig,
  name: string,
  diagnostics: Diagnostic[],
): Partial<McpServerTable> {
  const own: Partial<McpServerTable> = {};
  let ownSets = false;
  for (const layer of loaded.layers) {
    const table = layer.table.mcp_servers?.[name];
    if (!table || !isOwnLayer(layer.kind)) continue;
    for (const key of SANDBOX_KEYS) {
      if (table[key] !== undefined) {
        (own as Record<string, unknown>)[key] = table[key];
        ownSets = true;
      }
    }
  }
  if (!ownSets) return {};
  for (const layer of loaded.layers.filter((l) => !isOwnLayer(l.kind))) {
    const table = layer.table.mcp_servers?.[name];
    if (table && SANDBOX_KEYS.some((key) => table[key] !== undefined)) {
      diagnostics.push(warning(
        `Ignored the sandbox keys of MCP server "${name}" in ${layer.source}: your own config sets its profile`,
        { file: layer.source, subject: name },
      ));
    }
  }
  return { sandbox: undefined, sandbox_network: undefined, sandbox_writable: undefined, ...own };
}

/**
 * `mcp_require_sandbox`, read only from the layers a repository cannot write (as
 * `mcp_tool_pinning`): a project must not switch the requirement off for its own servers.
 * Returns the file that set it to true, if one did.
 */
function requireSandboxSetting(loaded: LoadedConfig, diagnostics: Diagnostic[]): string | undefined {
  let setBy: string | undefined;
  for (const layer of loaded.layers) {
    const value = layer.table.mcp_require_sandbox;
    if (value === undefined) continue;
    if (!isOwnLayer(layer.kind)) {
      diagnostics.push({
        level: "warning",
        message: `Ignored mcp_require_sandbox in ${layer.source}: only your own config ` +
          "($TRELLIS_HOME/config.toml, /etc/trellis, -c) may set it",
        file: layer.source,
      });
      continue;
    }
    setBy = value ? layer.source : undefined;
  }
  return setBy;
}

/**
 * Under `mcp_require_sandbox = true` a plugin's or project's stdio server without a profile is
 * refused (never started, never started unconfined): its connection fails with this message, which
 * names the server and the key that would let it start.
 */
function refuseUnconfined(registration: McpRegistration, setBy: string): void {
  const config = registration.config;
  if (config.transport.type !== "stdio" || config.sandbox) return;
  const name = config.name;
  const where = registration.plugin
    ? `[plugins."${registration.plugin.id}".mcp_servers.${name}] sandbox in your config.toml`
    : `"sandbox" in its entry in ${registration.source}, or redefine the server whole (command, args and ` +
      `sandbox) as [mcp_servers.${name}] in your config.toml,`;
  config.sandboxRefusal = `not started: mcp_require_sandbox = true (${setBy}) and this ` +
    `${
      registration.plugin ? `plugin (${registration.plugin.id})` : "project"
    } server has no sandbox profile; ` +
    `set ${where} to "read-only" or "workspace-write" (\`trellis mcp sandbox-check ${name}\` shows what it needs)`;
}
