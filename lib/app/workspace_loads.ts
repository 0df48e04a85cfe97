import type { LoadedAgents } from "../agents/mod.ts";
import type { LoadedConfig } from "../config/mod.ts";
import {
  type LoadedHooks,
  type LoadedPermissionRules,
  loadHooks,
  loadPermissionRules,
} from "../hooks/mod.ts";
import {
  type McpServerConfig,
  mcpServersFromConfig,
  type PluginMcpServer,
  type ResolvedCatalog,
} from "../mcp/mod.ts";
import { PluginCache, type PluginLoadResult } from "../plugins/mod.ts";
import type { Platform } from "../platform/mod.ts";
import type { Diagnostic } from "../shared/mod.ts";
import { createSkillsService, type SkillsInput, type SkillsSnapshot } from "../skills/mod.ts";
import { loadSessionAgents } from "./agent_wiring.ts";
import { skillsInputFor } from "./skills_input.ts";
import { unloadedPlugins } from "./hooks_wiring.ts";

/**
 * The one place that loads a workspace's extensions (#26 item 2): the enabled plugins, the hooks,
 * the agent definitions, the permission rules, the skills and the MCP catalog — each the first
 * time it is asked for, then kept, so a command pays only for what it uses and a session opened
 * from the Workspace reuses what a command already read. The Workspace owns one; a Session is
 * built from it (a Session opened without one gets its own, loading the same way).
 */
export class WorkspaceLoads {
  /** Plugins through a cache a session invalidates when a plugin is installed mid-session (PL-11). */
  readonly pluginCache: PluginCache;
  #hooks?: Promise<LoadedHooks>;
  #agents?: Promise<LoadedAgents>;
  #rules?: LoadedPermissionRules;
  #skills?: Promise<{ input: SkillsInput; snapshot: SkillsSnapshot }>;
  #catalog?: Promise<{ catalog: ResolvedCatalog; diagnostics: Diagnostic[] }>;

  constructor(readonly platform: Platform, readonly loaded: LoadedConfig, pluginCache?: PluginCache) {
    this.pluginCache = pluginCache ?? new PluginCache({ platform });
  }

  /**
   * The loads a new session starts from: the same plugin cache (checked against the configured
   * set, dropped when a plugin is installed), hooks, agents and rules read anew — a hook trusted or
   * an agent file added since the last session applies to the next one, as in Claude Code.
   */
  forSession(): WorkspaceLoads {
    return new WorkspaceLoads(this.platform, this.loaded, this.pluginCache);
  }

  /** The configured plugins: what each contributes and why any is inactive. */
  plugins(): Promise<PluginLoadResult> {
    return this.pluginCache.get(this.loaded);
  }

  /** Every hook handler — config layers, other vendors' files, plugins — with its trust (HK-3). */
  hooks(): Promise<LoadedHooks> {
    this.#hooks ??= this.plugins().then((load) =>
      loadHooks({
        loaded: this.loaded,
        platform: this.platform,
        pluginSources: load.contributions.hookSources,
        unloadedPlugins: unloadedPlugins(load),
      })
    );
    return this.#hooks;
  }

  /** The agent definitions (#22 item 1), with their warnings. */
  agents(): Promise<LoadedAgents> {
    this.#agents ??= this.plugins().then((load) => loadSessionAgents(this.platform.fs, this.loaded, load));
    return this.#agents;
  }

  /** The permission rules enforced here, and those ignored (`permissions list`). */
  permissionRules(): LoadedPermissionRules {
    this.#rules ??= loadPermissionRules(this.platform.fs, this.loaded);
    return this.#rules;
  }

  /** The skills input and one snapshot of every root, as a session's first turn sees them. */
  skills(): Promise<{ input: SkillsInput; snapshot: SkillsSnapshot }> {
    this.#skills ??= this.plugins().then(async ({ contributions }) => {
      const input = skillsInputFor(this.platform.fs, this.loaded, contributions);
      const snapshot = await createSkillsService({ platform: this.platform }).snapshot(input);
      return { input, snapshot };
    });
    return this.#skills;
  }

  /** The MCP catalog: config layers, a trusted `.mcp.json`, the enabled plugins' servers. */
  mcpCatalog(): Promise<{ catalog: ResolvedCatalog; diagnostics: Diagnostic[] }> {
    this.#catalog ??= this.plugins().then((p) => this.catalogWith(p.contributions.mcpServers));
    return this.#catalog;
  }

  /**
   * The catalog with these plugin servers (a session's, after its plugin set changed), and the
   * servers an ACP client passed in `session/new` (#25 item 1), origin `acp`.
   */
  catalogWith(
    pluginServers: PluginMcpServer[],
    clientServers: McpServerConfig[] = [],
  ): { catalog: ResolvedCatalog; diagnostics: Diagnostic[] } {
    return mcpServersFromConfig(this.loaded, {
      platform: this.platform,
      pluginServers,
      ...(clientServers.length ? { extensionServers: clientServers } : {}),
    });
  }
}
