import type { LoadedConfig } from "../config/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import type { HookHandlerInfo, HookOrigin, HookSource, TrustStatus } from "./hook_handler.ts";
import { discoverHookSources } from "./hook_sources.ts";
import { type HookStateEntry, readHookState } from "./hook_state.ts";
import type { DeclaredHandler } from "./hook_handler.ts";
import { parseHookSource } from "./parse_source.ts";
import { hookTrustHash } from "./trust_hash.ts";

/** One plugin's hook file or inline manifest hooks, produced by the plugins subsystem. */
export interface PluginHookSource {
  pluginId: string;
  /** "claude" for a plugin Claude Code installed, read in place; absent for Trellis's own. */
  origin?: "claude";
  pluginRoot: string;
  dataDir: string;
  /** Plugin-relative, e.g. `hooks/hooks.json` or `plugin.json#hooks[0]`; part of the stable key. */
  sourcePath: string;
  /** The parsed `{ hooks: {…} }` object. */
  hooks: unknown;
}

export interface LoadHooksOptions {
  loaded: LoadedConfig;
  platform: Platform;
  pluginSources: PluginHookSource[];
  /** Run untrusted and modified handlers too (explicit bypass; never set from project config). */
  bypassTrust?: boolean;
}

export interface LoadedHooks {
  /** Every command handler, runnable or not, in display order. */
  handlers: HookHandlerInfo[];
  diagnostics: Diagnostic[];
  /** Enabled handlers that are untrusted or modified: the session-start review notice. */
  needsReview: number;
}

/** Discover → parse → judge trust (HK-2/3/4). Never throws for a bad file: it becomes a diagnostic. */
export async function loadHooks(options: LoadHooksOptions): Promise<LoadedHooks> {
  const { loaded, platform } = options;
  const found = await discoverHookSources(platform.fs, loaded);
  const diagnostics = [...found.diagnostics];
  const sources = [...found.sources, ...pluginHookSources(options.pluginSources, diagnostics)];
  const kept = found.managedOnly ? sources.filter((s) => s.managed) : sources;
  if (found.managedOnly && kept.length < sources.length) {
    diagnostics.push({
      level: "info",
      message: `allow_managed_hooks_only is set: skipped hooks from ${
        sources.length - kept.length
      } unmanaged source(s)`,
    });
  }
  const { state, diagnostics: stateDiagnostics } = readHookState(loaded);
  diagnostics.push(...stateDiagnostics);
  const handlers: HookHandlerInfo[] = [];
  for (const source of kept) {
    const parsed = parseHookSource(source);
    diagnostics.push(...parsed.diagnostics);
    for (const declared of parsed.handlers) {
      handlers.push(judge(declared, source, state.get(declared.key), handlers.length, options.bypassTrust));
    }
  }
  const needsReview = handlers.filter((h) => h.enabled && (h.trust === "untrusted" || h.trust === "modified"))
    .length;
  return { handlers, diagnostics, needsReview };
}

function pluginHookSources(plugins: PluginHookSource[], diagnostics: Diagnostic[]): HookSource[] {
  const out: HookSource[] = [];
  for (const p of plugins) {
    const events = (p.hooks as { hooks?: unknown } | null)?.hooks;
    const file = `${p.pluginId}:${p.sourcePath}`;
    if (typeof events !== "object" || events === null || Array.isArray(events)) {
      diagnostics.push(warning(`Cannot load hooks "${file}": expected an object with a "hooks" object`, {
        file,
        subject: p.pluginId,
      }));
      continue;
    }
    out.push({
      kind: "plugin",
      path: file,
      keySource: file,
      managed: false,
      plugin: {
        pluginId: p.pluginId,
        pluginRoot: p.pluginRoot,
        dataDir: p.dataDir,
        ...(p.origin ? { origin: p.origin } : {}),
      },
      events: events as Record<string, unknown>,
    });
  }
  return out;
}

/** Whose file a source is: a Codex user's, a Claude Code user's (settings, plugins), or Trellis's. */
function hookOrigin(source: HookSource): HookOrigin {
  switch (source.kind) {
    case "codex_user":
      return "codex";
    case "claude_user":
    case "claude_project":
      return "claude";
    case "plugin":
      return source.plugin?.origin ?? "trellis";
    default:
      return "trellis";
  }
}

/** The trust gate: runnable iff enabled AND (managed OR trusted OR bypass). */
export function trustStatus(managed: boolean, stored: string | undefined, current: string): TrustStatus {
  if (managed) return "managed";
  if (stored === undefined) return "untrusted";
  return stored === current ? "trusted" : "modified";
}

function judge(
  declared: DeclaredHandler,
  source: HookSource,
  entry: HookStateEntry | undefined,
  displayOrder: number,
  bypassTrust = false,
): HookHandlerInfo {
  const hash = hookTrustHash(declared);
  const trust = trustStatus(source.managed, entry?.trustedHash, hash);
  // Managed hooks cannot be disabled.
  const enabled = source.managed || entry?.enabled !== false;
  const runnable = enabled && (trust === "managed" || trust === "trusted" || bypassTrust);
  return {
    ...declared,
    sourcePath: source.path,
    sourceKind: source.kind,
    origin: hookOrigin(source),
    managed: source.managed,
    ...(source.plugin ? { plugin: source.plugin } : {}),
    displayOrder,
    hash,
    trust,
    enabled,
    runnable,
  };
}
