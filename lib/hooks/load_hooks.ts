import * as path from "node:path";
import type { LoadedConfig } from "../config/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { BUILD_ID, type Diagnostic, warning } from "../shared/mod.ts";
import type { HookHandlerInfo, HookOrigin, HookSource, TrustStatus } from "./hook_handler.ts";
import { discoverHookSources } from "./hook_sources.ts";
import { type HookStateEntry, readHookState } from "./hook_state.ts";
import type { DeclaredHandler } from "./hook_handler.ts";
import { parseHookSource } from "./parse_source.ts";
import { type ParsedHookSource, parseHookSourceCached } from "./parse_cache.ts";
import { hookTrustHash } from "./trust_hash.ts";
import { type ContentScope, handlerContent } from "./content_trust.ts";

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
  /** The plugin tree's digest now: a trusted hook covers it (#20 item 7). */
  contentDigest?: string;
  /** Why the tree could not be hashed (its directory vanished): its hooks never run. */
  contentError?: string;
}

export interface LoadHooksOptions {
  loaded: LoadedConfig;
  platform: Platform;
  pluginSources: PluginHookSource[];
  /** Run untrusted and modified handlers too (explicit bypass; never set from project config). */
  bypassTrust?: boolean;
  /**
   * Enabled plugins that did not load (not installed, directory gone): a trusted hook of one is
   * named in a warning instead of vanishing silently; nothing of it runs.
   */
  unloadedPlugins?: { pluginId: string; reason: string }[];
  /**
   * The build id keying the parse cache in `$TRELLIS_HOME/cache/hooks/` (parse_cache.ts); default
   * this binary's, none from the sources (nothing cached); `false`: never cached.
   */
  parseCacheBuild?: string | false;
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
  const { cwd, projectRoot, userHome } = loaded.paths;
  const scope: ContentScope = { cwd, projectRoot, userHome };
  const build = options.parseCacheBuild ?? BUILD_ID;
  const cache = build ? { dir: path.join(loaded.paths.home, "cache", "hooks"), buildId: build } : undefined;
  for (const source of kept) {
    const parsed = parseHookSourceCached(platform.fs, cache, source, parseAndHash);
    diagnostics.push(...parsed.diagnostics);
    if (source.plugin?.contentError !== undefined && parsed.handlers.length > 0) {
      diagnostics.push(warning(
        `Hooks of plugin ${source.plugin.pluginId} not run: ${source.plugin.contentError}`,
        { file: source.path, subject: source.plugin.pluginId },
      ));
    }
    parsed.handlers.forEach((declared, i) => {
      const entry = state.get(declared.key);
      const hash = parsed.hashes[i];
      handlers.push(judge(declared, hash, source, entry, handlers.length, scope, options.bypassTrust));
    });
  }
  diagnostics.push(...unloadedPluginWarnings(options.unloadedPlugins ?? [], state));
  const needsReview = handlers.filter((h) => h.enabled && (h.trust === "untrusted" || h.trust === "modified"))
    .length;
  return { handlers, diagnostics, needsReview };
}

/** A source's handlers and each one's trust hash: what parse_cache.ts keeps between starts. */
function parseAndHash(source: HookSource): ParsedHookSource {
  const { handlers, diagnostics } = parseHookSource(source);
  return { handlers, hashes: handlers.map(hookTrustHash), diagnostics };
}

/** The `hooks:` of one skill's, command's or agent's frontmatter (#24 item 2). */
export interface ScopedHookSource {
  kind: "skill" | "command" | "agent";
  /** The skill, command or agent name (part of each handler's key). */
  name: string;
  /** The file declaring them (SKILL.md, the command's .md, the agent's .md). */
  path: string;
  /** The frontmatter's `hooks` value: `{ Event: [{ matcher, hooks: [...] }] }`. */
  hooks: unknown;
  /** Set when the file belongs to a plugin: its variables and tree digest apply. */
  plugin?: HookSource["plugin"];
}

/**
 * Judges a frontmatter's hooks exactly as a file's (parse, trust by hash, state), for
 * `HookEngine.addScopedHooks` while the skill, command or agent is active. Keys are
 * `<kind>:<name>:<event_label>:<group>:<handler>`, so `trellis hooks trust KEY` reviews them.
 */
export function loadScopedHooks(options: {
  loaded: LoadedConfig;
  source: ScopedHookSource;
  bypassTrust?: boolean;
}): { handlers: HookHandlerInfo[]; diagnostics: Diagnostic[]; needsReview: number } {
  const { loaded, source } = options;
  const diagnostics: Diagnostic[] = [];
  if (typeof source.hooks !== "object" || source.hooks === null || Array.isArray(source.hooks)) {
    diagnostics.push(warning(`invalid hooks in ${source.path}: expected an object of events`, {
      file: source.path,
      field: "hooks",
    }));
    return { handlers: [], diagnostics, needsReview: 0 };
  }
  const hookSource: HookSource = {
    kind: source.kind,
    path: source.path,
    keySource: `${source.kind}:${source.name}`,
    managed: false,
    ...(source.plugin ? { plugin: source.plugin } : {}),
    events: source.hooks as Record<string, unknown>,
  };
  const { state, diagnostics: stateDiagnostics } = readHookState(loaded);
  diagnostics.push(...stateDiagnostics);
  const parsed = parseHookSource(hookSource);
  diagnostics.push(...parsed.diagnostics);
  const { cwd, projectRoot, userHome } = loaded.paths;
  const handlers = parsed.handlers.map((declared, i) =>
    judge(
      declared,
      hookTrustHash(declared),
      hookSource,
      state.get(declared.key),
      100_000 + i,
      { cwd, projectRoot, userHome },
      options.bypassTrust,
    )
  );
  const review = handlers.filter((h) => h.enabled && !h.runnable);
  if (review.length > 0) {
    diagnostics.push(warning(
      `${review.length} hook(s) of ${source.kind} ${source.name} not run until trusted: ` +
        review.map((h) => `trellis hooks trust ${h.key}`).join(", "),
      { file: source.path, field: "hooks" },
    ));
  }
  return { handlers, diagnostics, needsReview: review.length };
}

/** One warning per enabled plugin that did not load yet has hooks the user trusted. */
function unloadedPluginWarnings(
  unloaded: { pluginId: string; reason: string }[],
  state: Map<string, HookStateEntry>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { pluginId, reason } of unloaded) {
    const keys = [...state].filter(([key, e]) =>
      e.trustedHash !== undefined && key.startsWith(`${pluginId}:`)
    )
      .map(([key]) => key);
    if (keys.length === 0) continue;
    out.push(warning(
      `Trusted hook(s) of plugin ${pluginId} not run: ${reason} (${keys.join(", ")}); ` +
        `reinstall it, or forget them: trellis hooks untrust KEY`,
      { subject: pluginId },
    ));
  }
  return out;
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
        ...(p.contentDigest !== undefined ? { contentDigest: p.contentDigest } : {}),
        ...(p.contentError !== undefined ? { contentError: p.contentError } : {}),
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
    case "gemini_user":
    case "gemini_project":
    case "gemini_extension":
      return "gemini";
    case "copilot_user":
    case "copilot_project":
      return "copilot";
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

/**
 * Trust of the content part (#20 item 7), judged only once the command hash matches: a content hash
 * missing on either side, or differing, makes the hook `modified` with the reason named.
 */
function contentVerdict(stored: string | undefined, current: string | undefined): string | undefined {
  if (stored === current) return undefined;
  if (stored === undefined) return "content not recorded (trusted before its content was hashed)";
  return "content changed";
}

function judge(
  declared: DeclaredHandler,
  hash: string,
  source: HookSource,
  entry: HookStateEntry | undefined,
  displayOrder: number,
  scope: ContentScope,
  bypassTrust = false,
): HookHandlerInfo {
  // Only a command names files; the other types' definitions (URL, prompt, tool) are all in the hash.
  const isCommand = (declared.type ?? "command") === "command";
  const content = source.managed || !isCommand ? {} : handlerContent(declared, source, scope);
  let trust = trustStatus(source.managed, entry?.trustedHash, hash);
  let trustReason = trust === "modified" ? "command changed" : undefined;
  if (trust === "trusted") {
    trustReason = content.problem ?? contentVerdict(entry?.contentHash, content.hash);
    if (trustReason !== undefined) trust = "modified";
  }
  // Managed hooks cannot be disabled.
  const enabled = source.managed || entry?.enabled !== false;
  // A hook whose content cannot be read never runs, not even when trust is bypassed.
  const runnable = enabled && content.problem === undefined &&
    (trust === "managed" || trust === "trusted" || bypassTrust);
  return {
    ...declared,
    sourcePath: source.path,
    sourceKind: source.kind,
    origin: hookOrigin(source),
    managed: source.managed,
    ...(source.plugin ? { plugin: source.plugin } : {}),
    displayOrder,
    hash,
    ...(content.hash !== undefined ? { contentHash: content.hash } : {}),
    ...(content.files ? { contentFiles: content.files } : {}),
    trust,
    ...(trustReason !== undefined ? { trustReason } : {}),
    enabled,
    runnable,
  };
}
