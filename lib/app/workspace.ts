import {
  loadConfig,
  type LoadedConfig,
  type ProjectTrustResult,
  resolvePaths,
  setProjectTrust,
  type TrellisPaths,
} from "../config/mod.ts";
import {
  createHookEngine,
  type HookEngine,
  type HookHandlerInfo,
  type HookServices,
  type HookStateChange,
  type LoadedHooks,
  type LoadedPermissionRules,
  writeHookState,
} from "../hooks/mod.ts";
import type { ResolvedCatalog } from "../mcp/mod.ts";
import type { PluginLoadResult } from "../plugins/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { type Diagnostic, discardEvents, type EventSink } from "../shared/mod.ts";
import type { SkillsInput, SkillsSnapshot } from "../skills/mod.ts";
import type { LoadedAgents } from "../agents/mod.ts";
import { agentScopedHooks } from "./agent_wiring.ts";
import { WorkspaceLoads } from "./workspace_loads.ts";
import { keepHomePrivate } from "./private_home.ts";
import { userHttpAllowlist } from "./hooks_wiring.ts";
import { type McpCommandOptions, type McpCommandRuntime, openMcpCommand } from "./mcp_command.ts";
import { Session, type SessionOptions } from "./session.ts";

/** Where a workspace is and how its config is selected: the common flags `-C`, `-c`, `-p`. */
export interface WorkspaceOptions {
  /** The directory Trellis runs in (default: the process's). */
  cwd?: string;
  /** `-c key.path=value` overrides, in order. */
  overrides?: string[];
  /** `[profiles.<name>]` to apply. */
  profile?: string;
  /**
   * A config file that does not parse or validate is left out with an error diagnostic instead of
   * failing the open (`trellis doctor` reports it and still checks the rest).
   */
  skipInvalidFiles?: boolean;
}

/**
 * What `Workspace.openSession` needs beyond the workspace: how the session talks to its user, and
 * optionally a platform whose terminal I/O is wrapped (exec's); default the workspace's.
 */
export type WorkspaceSessionOptions = Omit<SessionOptions, "platform" | "loaded"> & { platform?: Platform };

/**
 * One assembled workspace (issue #16 item 5): its config with project trust applied, and — each
 * opened the first time it is asked for, so a command pays only for what it uses — the enabled
 * plugins, the resolved MCP catalog, an MCP runtime with sampling, elicitation and roots as a
 * session has them, the skills snapshot, the hooks, and sessions. Every command of the CLI and every
 * embedder goes through it; nothing else wires subsystems together.
 */
export class Workspace {
  /** The one loader of plugins, hooks, skills, agents, rules and the MCP catalog (#26 item 2). */
  readonly #loads: WorkspaceLoads;
  /** `hooks()`: the loaded hooks plus agents' frontmatter hooks, for listing and trust. */
  #listedHooks?: Promise<LoadedHooks>;

  private constructor(readonly platform: Platform, readonly loaded: LoadedConfig) {
    keepHomePrivate(loaded.paths);
    this.#loads = new WorkspaceLoads(platform, loaded);
  }

  /** Loads the config layers for `options` (validated; problems are in `diagnostics`, never thrown). */
  static async open(platform: Platform, options: WorkspaceOptions = {}): Promise<Workspace> {
    const loaded = await loadConfig(platform.fs, {
      cwd: options.cwd ?? platform.cwd(),
      env: platform.env,
      overrides: options.overrides ?? [],
      profile: options.profile,
      ...(options.skipInvalidFiles ? { skipInvalidFiles: true } : {}),
    });
    loaded.diagnostics.push(...keepHomePrivate(loaded.paths, { tighten: true }));
    return new Workspace(platform, loaded);
  }

  /** A workspace over config already loaded (a caller that loaded it itself). */
  static fromConfig(platform: Platform, loaded: LoadedConfig): Workspace {
    return new Workspace(platform, loaded);
  }

  /**
   * The paths of a directory's workspace without reading any config: what an edit of one config file
   * needs (a broken config elsewhere must not block `project trust` or `mcp add`).
   */
  static paths(platform: Platform, cwd: string = platform.cwd()): TrellisPaths {
    const paths = resolvePaths(platform.fs, { cwd, env: platform.env });
    keepHomePrivate(paths);
    return paths;
  }

  /**
   * Trusts (or stops trusting) a project directory in the user config (Codex's
   * `[projects."<abs path>"] trust_level`): `dir`, else the project root of `cwd`; returns the
   * canonical path written and the file, and (trusting) what changed among its layer files since it
   * was last trusted.
   */
  static async setProjectTrust(
    platform: Platform,
    dir: string | undefined,
    trusted: boolean,
    cwd: string = platform.cwd(),
  ): Promise<ProjectTrustResult & { file: string }> {
    const paths = Workspace.paths(platform, dir ?? cwd);
    const target = dir ? paths.cwd : paths.projectRoot;
    const result = await setProjectTrust(platform.fs, paths.userConfig, target, trusted);
    return { ...result, file: paths.userConfig };
  }

  /** The config's warnings and notes (invalid keys, skipped layers). */
  get diagnostics(): Diagnostic[] {
    return this.loaded.diagnostics;
  }

  get paths(): TrellisPaths {
    return this.loaded.paths;
  }

  /** The configured plugins, loaded once: what each contributes and why any is inactive. */
  plugins(): Promise<PluginLoadResult> {
    return this.#loads.plugins();
  }

  /** The MCP catalog a session would resolve: config layers, a trusted `.mcp.json`, plugins. */
  mcpCatalog(): Promise<{ catalog: ResolvedCatalog; diagnostics: Diagnostic[] }> {
    return this.#loads.mcpCatalog();
  }

  /**
   * Starts the catalog's servers (all, or `options.server`) as a session does — the session's model
   * answers sampling, elicitations go to the terminal when there is one, the workspace is the root,
   * tool pins are checked — and waits for them. Shut it down when done.
   */
  async openMcp(options: Omit<McpCommandOptions, "platform" | "loaded">): Promise<McpCommandRuntime> {
    return await openMcpCommand(
      { ...options, platform: this.platform, loaded: this.loaded },
      await this.mcpCatalog(),
    );
  }

  /** The skills input (roots, catalog budget) and one snapshot of every root, as a session's first turn. */
  skills(): Promise<{ input: SkillsInput; snapshot: SkillsSnapshot }> {
    return this.#loads.skills();
  }

  /** The agent definitions a session would load (#22 item 1), with their warnings. */
  agents(): Promise<LoadedAgents> {
    return this.#loads.agents();
  }

  /** Every hook handler — config layers, Claude Code settings, plugins — with its trust status (HK-3). */
  hooks(): Promise<LoadedHooks> {
    // Agents' frontmatter hooks (#22 item 4) are listed and trusted by key like a file's; a session
    // registers them only while their agent runs (lib/app/agent_child.ts), never with these.
    return this.#listedHooks ??= Promise.all([this.#loads.hooks(), this.#loads.agents()]).then(
      ([configured, agents]) => {
        const scoped = agentScopedHooks(this.loaded, agents.agents);
        return {
          ...configured,
          handlers: [...configured.handlers, ...scoped.handlers],
          diagnostics: [...configured.diagnostics, ...scoped.diagnostics],
          needsReview: configured.needsReview + scoped.needsReview,
        };
      },
    );
  }

  /** The permission rules a session here would enforce, and those it ignores (`permissions list`). */
  permissionRules(): LoadedPermissionRules {
    return this.#loads.permissionRules();
  }

  /** An engine over these handlers, outside any session (`trellis hooks test`). */
  hookEngine(handlers: HookHandlerInfo[], options: { threadId: string; events?: EventSink }): HookEngine {
    return createHookEngine({
      handlers,
      platform: this.platform,
      events: options.events ?? discardEvents,
      home: this.loaded.paths.home,
      threadId: options.threadId,
      services: this.hookServices(),
    });
  }

  /**
   * What `hooks test` and `hooks doctor` give the other handler types (#24 item 2): the user's http
   * allowlist. No session runs there, so a prompt, agent or mcp_tool hook reports that it cannot.
   */
  hookServices(): HookServices {
    const httpAllowlist = userHttpAllowlist(this.loaded);
    return httpAllowlist ? { httpAllowlist } : {};
  }

  /** Records hook trust and enablement in the user config; returns the file written. */
  writeHookState(changes: HookStateChange[]): Promise<string> {
    return writeHookState(this.platform.fs, this.loaded.paths.userConfig, changes);
  }

  /**
   * A session in this workspace. Call `start()` before the first turn so SessionStart hooks run
   * (HK-12), then `runTurn()` per prompt, then `close()`.
   */
  openSession(options: WorkspaceSessionOptions): Promise<Session> {
    return Session.open({
      platform: this.platform,
      ...options,
      loaded: this.loaded,
      loads: this.#loads.forSession(),
    });
  }
}
