import type { LoadedConfig } from "../config/mod.ts";
import { createHookEngine, loadHooks, type PluginHookSource, reviewNotice } from "../hooks/mod.ts";
import { type Platform, sandboxArgv, SandboxProfileError, type SandboxStatus } from "../platform/mod.ts";
import { type EventSink, type LifecycleHooks, noLifecycleHooks } from "../shared/mod.ts";
import { type PermissionProfile, sandboxPolicyFor } from "../tools/mod.ts";
import { reportDiagnostics } from "./diagnostics.ts";

/**
 * Discovers hooks (trust decided per handler, HK-3), reports what needs review, and builds the
 * engine the loop calls. Hook commands run in the same sandbox profile as `shell`.
 */
export async function wireHooks(options: {
  platform: Platform;
  loaded: LoadedConfig;
  events: EventSink;
  pluginSources: PluginHookSource[];
  sandbox: SandboxStatus;
  profile: PermissionProfile;
  threadId: string;
}): Promise<LifecycleHooks> {
  const { platform, loaded, events, sandbox, profile } = options;
  const loadedHooks = await loadHooks({ loaded, platform, pluginSources: options.pluginSources });
  reportDiagnostics(events, loadedHooks.diagnostics);
  const notice = reviewNotice(loadedHooks.needsReview);
  if (notice) events({ type: "notice", message: notice });
  // Nothing to dispatch: the loop then skips building hook payloads for every call.
  if (loadedHooks.handlers.length === 0) return noLifecycleHooks;
  const wrapCommand = sandbox.available && profile.sandboxMode !== "danger-full-access"
    ? (argv: string[]) => {
      try {
        return sandboxArgv(argv, sandboxPolicyFor(profile, loaded.paths.cwd, platform.envAll()), sandbox);
      } catch (error) {
        if (!(error instanceof SandboxProfileError)) throw error;
        // The runner never throws: the hook fails (126, not run), with the reason on its stderr.
        const why = `sandbox unavailable (${error.message})`;
        return ["/bin/sh", "-c", 'printf "%s\\n" "$0" >&2; exit 126', why];
      }
    }
    : undefined;
  return createHookEngine({
    handlers: loadedHooks.handlers,
    platform,
    events,
    home: loaded.paths.home,
    threadId: options.threadId,
    ...(wrapCommand ? { wrapCommand } : {}),
  });
}
