import * as path from "node:path";
import { compatEnabled, type LoadedConfig, userControlledLayers } from "../config/mod.ts";
import type { SkillRootSpec } from "./types.ts";

export const DEFAULT_WATCH_THROTTLE_MS = 10_000;

/** `[[skills.config]]` as written; validated when rules are applied. */
export interface SkillRuleInput {
  path?: string;
  name?: string;
  enabled: boolean;
  /** The config file (or `-c`) that wrote it, for warnings. */
  source: string;
}

/** Everything a snapshot depends on; built from config by `skillsInputFromConfig`. */
export interface SkillsInput {
  cwd: string;
  /** Highest precedence first (SK-1). */
  roots: SkillRootSpec[];
  /** Disable rules from user-controlled layers only, lowest precedence first. */
  rules: SkillRuleInput[];
  /** Where the bundled system skills are materialised; null when `[skills.bundled] enabled = false`. */
  bundledDir: string | null;
  /** The `.system` directory to remove when bundled skills are disabled. */
  bundledCleanupDir: string;
  watchThrottleMs: number;
  /** `$TRELLIS_HOME/cache/skills_metadata.json`: parsed SKILL.md frontmatter, keyed by file stat; none: no cache. */
  cacheFile?: string;
  /** Options for `renderSkillsCatalog`. */
  catalog: { includeInstructions: boolean; contextWindow?: number };
}

export interface PluginSkillRoot {
  path: string;
  pluginId: string;
  namespace: string;
  /** "claude" for a plugin Claude Code installed, "gemini" for a Gemini CLI extension's commands. */
  origin?: "claude" | "gemini";
}

/** What the composition root adds to the config: plugin contributions and the model's window. */
export interface SkillsInputExtra {
  /** Active plugins' skill roots (namespaced `<plugin>:<skill>`). */
  pluginRoots: PluginSkillRoot[];
  /** Active plugins' Claude `commands/` directories: each `*.md` is an explicit-only skill. */
  pluginCommandRoots?: PluginSkillRoot[];
  /** The model's context window as the app resolved it; default: config `model_context_window`. */
  contextWindow?: number;
}

/** Derives the skills input of one session from its loaded config and the active plugins' skill roots. */
export function skillsInputFromConfig(loaded: LoadedConfig, extra: SkillsInputExtra): SkillsInput {
  const settings = loaded.config.skills ?? {};
  const { paths } = loaded;
  const claude = settings.claude_code ?? true;
  const bundledEnabled = settings.bundled?.enabled ?? true;
  const systemSkills = path.join(paths.home, "skills", ".system");
  const roots: SkillRootSpec[] = [];
  for (const dir of [...paths.projectDirs].reverse()) {
    roots.push({ path: path.join(dir, ".trellis", "skills"), kind: "project_config", scope: "repo" });
  }
  for (const dir of paths.projectDirs) {
    roots.push({ path: path.join(dir, ".agents", "skills"), kind: "project_agents", scope: "repo" });
    if (claude) {
      roots.push({ path: path.join(dir, ".claude", "skills"), kind: "project_claude", scope: "repo" });
    }
  }
  roots.push({ path: path.join(paths.userHome, ".agents", "skills"), kind: "user_agents", scope: "user" });
  if (claude) {
    roots.push({ path: path.join(paths.claudeDir, "skills"), kind: "user_claude", scope: "user" });
  }
  if (compatEnabled(loaded.config, "codex_skills")) {
    // Codex's user root (deprecated there in favour of ~/.agents/skills, still where most live);
    // its `.system` folder is Codex's own bundled skills, skipped like every hidden folder.
    roots.push({ path: path.join(paths.codexHome, "skills"), kind: "user_codex", scope: "user" });
  }
  roots.push({ path: path.join(paths.home, "skills"), kind: "trellis_home", scope: "user" });
  if (bundledEnabled) roots.push({ path: systemSkills, kind: "bundled", scope: "system" });
  roots.push({ path: path.join(paths.systemDir, "skills"), kind: "admin", scope: "admin" });
  for (const p of extra.pluginRoots) {
    const plugin = pluginRef(p);
    roots.push({ path: path.resolve(p.path), kind: "plugin", scope: "user", plugin });
  }
  for (const root of settings.extra_roots ?? []) {
    roots.push({ path: expandRoot(root, paths.userHome, paths.cwd), kind: "extra", scope: "user" });
  }
  for (const p of extra.pluginCommandRoots ?? []) {
    const plugin = pluginRef(p);
    roots.push({ path: path.resolve(p.path), kind: "plugin_commands", scope: "user", plugin });
  }
  const contextWindow = extra.contextWindow ?? loaded.config.model_context_window;
  return {
    cwd: paths.cwd,
    roots,
    rules: rulesFromLayers(loaded),
    bundledDir: bundledEnabled ? systemSkills : null,
    bundledCleanupDir: systemSkills,
    cacheFile: path.join(paths.home, "cache", "skills_metadata.json"),
    watchThrottleMs: settings.watch_throttle_ms ?? DEFAULT_WATCH_THROTTLE_MS,
    catalog: {
      includeInstructions: settings.include_instructions ?? true,
      ...(contextWindow ? { contextWindow } : {}),
    },
  };
}

function pluginRef(p: PluginSkillRoot) {
  return { id: p.pluginId, namespace: p.namespace, root: p.path, ...(p.origin ? { origin: p.origin } : {}) };
}

/** A project cannot enable or disable a user's skills: only the user layer and `-c` flags count. */
function rulesFromLayers(loaded: LoadedConfig): SkillRuleInput[] {
  return userControlledLayers(loaded).flatMap((layer) =>
    (layer.table.skills?.config ?? []).map((rule) => ({ ...rule, source: layer.source }))
  );
}

function expandRoot(root: string, home: string, cwd: string): string {
  if (root === "~") return home;
  if (root.startsWith("~/")) return path.join(home, root.slice(2));
  return path.resolve(cwd, root);
}

/** The config part of the cache key (SK-8): roots, scopes, plugins, rules, bundled switch. */
export function skillsConfigKey(input: SkillsInput): string {
  return JSON.stringify([
    input.roots.map((r) => [r.path, r.kind, r.scope, r.plugin?.id ?? null, r.plugin?.namespace ?? null]),
    input.rules.map((r) => [r.path ?? null, r.name ?? null, r.enabled]),
    input.bundledDir,
  ]);
}
