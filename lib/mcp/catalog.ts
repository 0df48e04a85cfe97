import type { McpServerConfig } from "./server_config.ts";

/** MCP-1 tiers, low → high precedence. */
export const MCP_TIERS = ["plugin", "selected_plugin", "config", "compatibility", "extension"] as const;
export type McpTier = typeof MCP_TIERS[number];

/**
 * Whose file declared a server: Trellis's own config, or a Codex or Claude Code user's files; or
 * `acp`: the editor driving `trellis acp` passed it in `session/new` (#25 item 1).
 */
export type McpOrigin = "trellis" | "codex" | "claude" | "gemini" | "acp";

export interface McpRegistration {
  tier: McpTier;
  /** Where it was declared: a config file, `.mcp.json`, `plugin:<id>`, … */
  source: string;
  /**
   * Whose file it is: `.mcp.json`, `~/.claude.json` and Claude Code's plugins are Claude Code's,
   * `$CODEX_HOME/config.toml` Codex's; absent means Trellis's own config (or a runtime extension).
   */
  origin?: McpOrigin;
  config: McpServerConfig;
  plugin?: { id: string; root: string };
  /**
   * Who provided it: the user's own config, a project (`.trellis/config.toml`, `.mcp.json`, a
   * profile, Claude Code's entries for this project) or a plugin. Decides the default
   * `mcp_tool_pinning` (issue #17); absent = user.
   */
  scope?: "user" | "project" | "plugin";
  /**
   * The Trellis config file whose bare `[mcp_servers.X] enabled = …` switched this server defined
   * elsewhere on or off (issue #21 item 9); absent when nothing did.
   */
  switchedBy?: string;
}

export interface CatalogConflict {
  server: string;
  /** Source of the registration that won inside the tier. */
  outcome: string;
  contenders: string[];
}

/**
 * A configured server whose `[mcp_servers.X]` table is invalid: it is never started and, like a
 * server that failed to start, it is reported as failed with its reason (`error`).
 */
export interface FailedRegistration {
  name: string;
  /** The config file that declared it. */
  source: string;
  error: string;
  /** Whose file it is (absent: Trellis's own config). */
  origin?: McpOrigin;
}

/** Immutable result of MCP-1 resolution. */
export interface ResolvedCatalog {
  /** Enabled winners, sorted by name. */
  readonly servers: readonly McpRegistration[];
  /** Names vetoed by a disabled winner, with that registration (for `mcp list`). */
  readonly disabled: readonly McpRegistration[];
  readonly conflicts: readonly CatalogConflict[];
  /** Invalid config entries: their names are neither started nor vetoed, only reported. */
  readonly failed?: readonly FailedRegistration[];
}

/** Inside a tier: the plugin tiers keep the earliest registration, the others the latest. */
function tierWinner(tier: McpTier, regs: McpRegistration[]): McpRegistration {
  return tier === "plugin" || tier === "selected_plugin" ? regs[0] : regs[regs.length - 1];
}

/**
 * MCP-1: stable sort by tier, a higher tier replaces a name, same-tier collisions are recorded, a
 * disabled winner vetoes its name for every higher tier — except a disabled SelectedPlugin
 * registration, which only removes itself.
 */
export function resolveCatalog(
  registrations: McpRegistration[],
  failed: readonly FailedRegistration[] = [],
  unreadable: readonly FailedRegistration[] = [],
): ResolvedCatalog {
  const winners = new Map<string, McpRegistration>();
  const vetoes = new Map<string, McpRegistration>();
  const conflicts: CatalogConflict[] = [];
  for (const tier of MCP_TIERS) {
    const byName = new Map<string, McpRegistration[]>();
    for (const reg of registrations.filter((r) => r.tier === tier)) {
      byName.set(reg.config.name, [...(byName.get(reg.config.name) ?? []), reg]);
    }
    for (const [name, regs] of byName) {
      if (vetoes.has(name)) continue;
      const winner = tierWinner(tier, regs);
      if (regs.length > 1) {
        conflicts.push({ server: name, outcome: winner.source, contenders: regs.map((r) => r.source) });
      }
      if (winner.config.enabled) {
        winners.set(name, winner);
      } else if (tier !== "selected_plugin") {
        winners.delete(name);
        vetoes.set(name, winner);
      }
    }
  }
  const byName = (a: McpRegistration, b: McpRegistration) =>
    a.config.name < b.config.name ? -1 : a.config.name > b.config.name ? 1 : 0;
  // The user's broken entry for a name stands for it: a plugin's server of that name is not started
  // in its place, silently, while the config says something else.
  const broken = new Set(failed.map((f) => f.name));
  const keep = (r: McpRegistration) => !broken.has(r.config.name);
  const servers = [...winners.values()].filter(keep).sort(byName);
  const disabled = [...vetoes.values()].filter(keep).sort(byName);
  // An entry of another file (.mcp.json, ~/.claude.json, a plugin) that could not be read is listed
  // failed, as a broken config.toml entry is — but never evicts a working server of its name.
  const working = new Set([...servers, ...disabled].map((r) => r.config.name));
  const listed = [...failed, ...unreadable.filter((f) => !working.has(f.name) && !broken.has(f.name))];
  return Object.freeze({
    servers: Object.freeze(servers),
    disabled: Object.freeze(disabled),
    conflicts: Object.freeze(conflicts),
    ...(listed.length ? { failed: Object.freeze(listed) } : {}),
  });
}

/** True when two catalogs would start the same servers with the same settings. */
export function sameCatalog(a: ResolvedCatalog, b: ResolvedCatalog): boolean {
  return JSON.stringify(a.servers) === JSON.stringify(b.servers);
}
