import type { LoadedConfig, ProjectInstructions } from "../config/mod.ts";
import * as path from "node:path";
import {
  createHookEngine,
  type HookEngine,
  type HookHandlerInfo,
  type HookServices,
  HTTP_ALLOWLIST_KEY,
  type LoadedHooks,
  reviewNotice,
} from "../hooks/mod.ts";
import type { PluginLoadResult } from "../plugins/mod.ts";
import { type Platform, sandboxArgv, SandboxProfileError, type SandboxStatus } from "../platform/mod.ts";
import {
  type EventSink,
  type HookTurnContext,
  type LifecycleHooks,
  noLifecycleHooks,
} from "../shared/mod.ts";
import { confinedPolicy, type PermissionProfile } from "../tools/mod.ts";
import { reportDiagnostics } from "./diagnostics.ts";

/**
 * Builds the engine the loop calls from the hooks the workspace loaded (trust decided per handler,
 * HK-3; loading is the Workspace's, #26 item 2) and reports what needs review. Hooks run as the
 * user, as in Claude Code and Codex (HK-6); confinement in `shell`'s sandbox profile is opt-in
 * (see `hookConfinement`).
 */
export function wireHooks(options: {
  platform: Platform;
  loaded: LoadedConfig;
  events: EventSink;
  loadedHooks: LoadedHooks;
  sandbox: SandboxStatus;
  profile: PermissionProfile;
  threadId: string;
  /** Model, subagents and MCP servers for prompt, agent and mcp_tool hooks (#24 item 2). */
  services?: Omit<HookServices, "httpAllowlist">;
  /** A skill or command declares frontmatter `hooks:`: an engine is built even with none configured. */
  scopedHooks?: boolean;
}): LifecycleHooks {
  const { events, loadedHooks } = options;
  reportDiagnostics(events, loadedHooks.diagnostics);
  const notice = reviewNotice(loadedHooks.needsReview);
  if (notice) events({ type: "notice", message: notice });
  // Nothing to dispatch: the loop then skips building hook payloads for every call.
  if (loadedHooks.handlers.length === 0 && !options.scopedHooks) return noLifecycleHooks;
  return hookEngineFor(options)(loadedHooks.handlers);
}

/**
 * An engine over some handlers with the session's confinement, services and http allowlist: the
 * session's own, and an agent's frontmatter hooks in a session that has none (#22 item 4).
 */
export function hookEngineFor(options: Parameters<typeof wireHooks>[0]) {
  const { platform, loaded, events } = options;
  return (handlers: HookHandlerInfo[]): HookEngine => {
    const httpAllowlist = userHttpAllowlist(loaded);
    const http = handlers.filter((h) => h.type === "http" && h.runnable);
    if (http.length > 0 && httpAllowlist === undefined) {
      // One warning, whatever the number of http hooks; each run then fails by name (a blocking guard blocks).
      events({
        type: "warning",
        message: `${http.length} http hook(s) will not run: set ${HTTP_ALLOWLIST_KEY} in your own config ` +
          `(${path.join(loaded.paths.home, "config.toml")}) to the URLs they may call`,
        subject: "hooks.allowed_http_hook_urls",
      });
    }
    return createHookEngine({
      handlers: handlers,
      platform,
      events,
      home: loaded.paths.home,
      threadId: options.threadId,
      confine: hookConfinement(loaded, options.sandbox, options.profile, platform.envAll()),
      services: { ...options.services, ...(httpAllowlist ? { httpAllowlist } : {}) },
    });
  };
}

/**
 * `[hooks] allowed_http_hook_urls` of the user's own config file only: a project (or `-c`, which a
 * project's scripts could pass) cannot widen where hooks send session data.
 */
export function userHttpAllowlist(loaded: LoadedConfig): string[] | undefined {
  const user = loaded.layers.find((l) => l.kind === "user");
  const list = (user?.table.hooks as { allowed_http_hook_urls?: unknown } | undefined)
    ?.allowed_http_hook_urls;
  return Array.isArray(list) ? list.filter((u): u is string => typeof u === "string") : undefined;
}

/** The enabled plugins a load left inactive with an error (not installed, its directory gone). */
export function unloadedPlugins(load: PluginLoadResult): { pluginId: string; reason: string }[] {
  return load.plugins.filter((p) => p.enabled && !p.active && p.error !== undefined)
    .map((p) => ({ pluginId: p.id, reason: p.error! }));
}

/**
 * `[hooks] sandbox = "shell"` confines every hook, `[plugins."id"] hooks_sandbox = true` one plugin's,
 * in the profile `shell` runs in (the same builder), with the plugin's PLUGIN_DATA writable in every
 * mode. "shell" set in any layer wins: a project can tighten, never loosen, the user's choice.
 */
export function hookConfinement(
  loaded: LoadedConfig,
  sandbox: SandboxStatus,
  profile: PermissionProfile,
  env: Record<string, string | undefined> = {},
): (handler: HookHandlerInfo) => ((argv: string[]) => string[]) | undefined {
  const all = loaded.layers.some((layer) => layer.table.hooks?.sandbox === "shell");
  const plugins = loaded.config.plugins ?? {};
  return (handler) => {
    const wanted = all ||
      (handler.plugin !== undefined && plugins[handler.plugin.pluginId]?.hooks_sandbox === true);
    if (!wanted || !sandbox.available || profile.sandboxMode === "danger-full-access") return undefined;
    const dataDir = handler.plugin?.dataDir;
    // The shell tool's hardening (protected paths, masked sockets and secrets), its mode, roots and
    // network, with PLUGIN_DATA writable in every mode.
    const writable = profile.sandboxMode === "workspace-write";
    const withData = confinedPolicy(profile, loaded.paths.cwd, env, {
      mode: writable ? "workspace-write" : "read-only",
      writableRoots: [...(writable ? profile.writableRoots : []), ...(dataDir ? [dataDir] : [])],
      networkAccess: writable && profile.networkAccess,
    });
    return (argv) => {
      try {
        return sandboxArgv(argv, withData, sandbox);
      } catch (error) {
        if (!(error instanceof SandboxProfileError)) throw error;
        // The runner never throws: the hook fails (126, not run), with the reason on its stderr.
        const why = `sandbox unavailable (${error.message})`;
        return ["/bin/sh", "-c", 'printf "%s\\n" "$0" >&2; exit 126', why];
      }
    };
  };
}

/**
 * InstructionsLoaded (#24 item 1), once per AGENTS.md / CLAUDE.md file the session sends, as Claude
 * Code fires it at start: an `@path` import is `include` with the file that imported it.
 */
export async function fireInstructionsLoaded(
  fire: NonNullable<LifecycleHooks["fire"]>,
  ctx: HookTurnContext,
  instructions: ProjectInstructions,
): Promise<void> {
  const memoryType = { user: "User", project: "Project", local: "Local" } as const;
  for (const file of instructions.files) {
    await fire(ctx, "InstructionsLoaded", {
      file_path: file.path,
      memory_type: memoryType[file.scope],
      load_reason: file.importedFrom ? "include" : "session_start",
      ...(file.importedFrom ? { parent_file_path: file.importedFrom } : {}),
    }).catch(() => {});
  }
}
