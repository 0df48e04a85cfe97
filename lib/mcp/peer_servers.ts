import {
  compatEnabled,
  type GeminiExtension,
  hydrateExtensionVars,
  installedGeminiExtensions,
  type LoadedConfig,
  readClaudeJson,
  readCodexConfig,
} from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import type { Diagnostic } from "../shared/mod.ts";
import type { FailedRegistration, McpOrigin, McpRegistration } from "./catalog.ts";
import { readMcpServerEntries } from "./mcp_json.ts";

/** Registrations read in place from other agents' files, in the order they take part in precedence. */
export interface PeerServers {
  /**
   * User-level files: Claude Code's `~/.claude.json` `mcpServers`, then Codex's `config.toml`, then
   * the installed Gemini CLI extensions' `gemini-extension.json` `mcpServers`.
   */
  user: McpRegistration[];
  /** Claude Code's per-project entries (`projects["<dir>"].mcpServers`): project scope, trusted only. */
  project: McpRegistration[];
  /** Entries of these files that could not be read: listed failed, as config.toml's are. */
  failed: FailedRegistration[];
  diagnostics: Diagnostic[];
}

/**
 * The MCP servers a Claude Code or Codex user already configured, read in place through the one
 * entry reader (`mcp_json.ts`): `~/.claude.json`'s user `mcpServers` and this project's
 * `projects["<dir>"].mcpServers` (Claude Code's local scope; a project scope, so only for a trusted
 * project, as `.mcp.json` is), and `[mcp_servers]` of `$CODEX_HOME/config.toml` (no `${VAR}`
 * expansion: Codex does none). Each file is switchable (`[compat] claude_json`, `codex_config`).
 */
export function peerMcpServers(
  fs: FileSystem,
  loaded: LoadedConfig,
  env: (name: string) => string | undefined,
): PeerServers {
  const out: PeerServers = { user: [], project: [], failed: [], diagnostics: [] };
  const add = (
    into: McpRegistration[],
    servers: Record<string, unknown>,
    options: { file: string; origin: McpOrigin; expand: boolean; field?: string; baseDir?: string },
  ) => {
    const read = readMcpServerEntries(servers, {
      file: options.field ? `${options.file} (${options.field})` : options.file,
      env,
      expand: options.expand,
      ...(options.baseDir ? { baseDir: options.baseDir } : {}),
    });
    out.diagnostics.push(...read.diagnostics);
    for (const f of read.failed) {
      out.failed.push({ name: f.name, source: options.file, error: f.error, origin: options.origin });
    }
    for (const config of read.servers) {
      into.push({ tier: "config", source: options.file, origin: options.origin, config });
    }
  };
  if (compatEnabled(loaded.config, "claude_json")) {
    const claude = readClaudeJson(fs, loaded.paths);
    out.diagnostics.push(...claude.diagnostics);
    if (claude.items) {
      const { file, userServers, projectServers } = claude.items;
      add(out.user, userServers, { file, origin: "claude", expand: true });
      for (const { project, servers } of projectServers) {
        if (!loaded.projectTrusted) {
          out.diagnostics.push({
            level: "info",
            message: `Skipped ${Object.keys(servers).length} MCP server(s) for ${project} in ${file}: ` +
              "this project is not trusted (run `trellis project trust` to load them)",
            file,
          });
          continue;
        }
        const field = `projects[${JSON.stringify(project)}].mcpServers`;
        add(out.project, servers, { file, origin: "claude", expand: true, field });
      }
    }
  }
  if (compatEnabled(loaded.config, "codex_config")) {
    const codex = readCodexConfig(fs, loaded.paths);
    out.diagnostics.push(...codex.diagnostics);
    if (codex.items) {
      add(out.user, codex.items.mcpServers, { file: codex.items.file, origin: "codex", expand: false });
    }
  }
  if (compatEnabled(loaded.config, "gemini")) {
    for (
      const extension of installedGeminiExtensions(fs, loaded.paths, out.diagnostics)
    ) {
      const servers = extension.manifest.mcpServers;
      if (servers === undefined) continue;
      if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
        out.diagnostics.push({
          level: "warning",
          message: `${extension.manifestFile}: "mcpServers" is not an object of servers; ignored`,
          file: extension.manifestFile,
          field: "mcpServers",
        });
        continue;
      }
      const entries = Object.fromEntries(
        Object.entries(servers).map(([name, entry]) => [name, geminiServerEntry(entry, extension)]),
      );
      add(out.user, entries, {
        file: extension.manifestFile,
        origin: "gemini",
        expand: true,
        field: "mcpServers",
        baseDir: extension.dir,
      });
    }
  }
  return out;
}

/**
 * A Gemini CLI server entry in the keys the one entry reader knows: `httpUrl` is streamable HTTP
 * and `url` SSE (Gemini's meanings), `includeTools`/`excludeTools` are Codex's
 * `enabled_tools`/`disabled_tools`, `timeout` (ms) its `tool_timeout_sec`; `${extensionPath}` and
 * `${/}` are filled in. Gemini's `trust` (skip its confirmations) is not honoured: Trellis's
 * approval policy decides, and the reader names the key as ignored.
 */
function geminiServerEntry(entry: unknown, extension: GeminiExtension): unknown {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return entry;
  const hydrate = (value: unknown): unknown =>
    typeof value === "string"
      ? hydrateExtensionVars(value, extension.dir)
      : Array.isArray(value)
      ? value.map(hydrate)
      : value && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hydrate(v)]))
      : value;
  const { httpUrl, url, includeTools, excludeTools, timeout, ...rest } = hydrate(entry) as Record<
    string,
    unknown
  >;
  return {
    ...rest,
    ...(httpUrl !== undefined
      ? { type: "http", url: httpUrl }
      : url !== undefined
      ? { type: "sse", url }
      : {}),
    ...(includeTools !== undefined ? { enabled_tools: includeTools } : {}),
    ...(excludeTools !== undefined ? { disabled_tools: excludeTools } : {}),
    ...(typeof timeout === "number" ? { tool_timeout_sec: timeout / 1000 } : {}),
  };
}
