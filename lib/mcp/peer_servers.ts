import { compatEnabled, type LoadedConfig, readClaudeJson, readCodexConfig } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import type { Diagnostic } from "../shared/mod.ts";
import type { FailedRegistration, McpOrigin, McpRegistration } from "./catalog.ts";
import { readMcpServerEntries } from "./mcp_json.ts";

/** Registrations read in place from other agents' files, in the order they take part in precedence. */
export interface PeerServers {
  /** User-level files: Claude Code's `~/.claude.json` `mcpServers`, then Codex's `config.toml`. */
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
    options: { file: string; origin: McpOrigin; expand: boolean; field?: string },
  ) => {
    const read = readMcpServerEntries(servers, {
      file: options.field ? `${options.file} (${options.field})` : options.file,
      env,
      expand: options.expand,
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
  return out;
}
