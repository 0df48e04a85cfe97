/**
 * The skills subsystem's data: roots, loaded metadata (never the body), load errors and the
 * immutable snapshot the loop captures for a turn.
 */

/** Precedence scopes (SK-1); the number is the sort rank of SK-2. */
export type SkillScope = "repo" | "user" | "system" | "admin";

export const SCOPE_RANK: Record<SkillScope, number> = { repo: 0, user: 1, system: 2, admin: 3 };

/** Where a root came from: decides scope, symlink policy and whether it is watched. */
export type SkillRootKind =
  | "project_config"
  | "project_agents"
  | "project_claude"
  | "user_agents"
  | "user_claude"
  | "user_codex"
  | "trellis_home"
  | "bundled"
  | "admin"
  | "plugin"
  | "plugin_commands"
  | "extra";

export interface SkillPluginRef {
  id: string;
  namespace: string;
  root: string;
  /** "claude" for a plugin Claude Code installed, "gemini" a Gemini CLI extension; absent for Trellis's own. */
  origin?: "claude" | "gemini";
}

/** Whose files a skill came from: Trellis's, a Codex user's, a Claude Code user's, or `.agents/`. */
export type SkillOrigin = "trellis" | "codex" | "claude" | "gemini" | "agents";

/** The origin `skills list` shows for a root kind (and, for plugin roots, the plugin's installer). */
export function skillOrigin(kind: SkillRootKind, plugin?: SkillPluginRef): SkillOrigin {
  switch (kind) {
    case "user_codex":
      return "codex";
    case "project_claude":
    case "user_claude":
      return "claude";
    case "project_agents":
    case "user_agents":
      return "agents";
    case "plugin":
    case "plugin_commands":
      return plugin?.origin ?? "trellis";
    default:
      return "trellis";
  }
}

export interface SkillRootSpec {
  path: string;
  kind: SkillRootKind;
  scope: SkillScope;
  plugin?: SkillPluginRef;
}

export interface SkillInterface {
  displayName?: string;
  shortDescription?: string;
  iconSmall?: string;
  iconLarge?: string;
  brandColor?: string;
  defaultPrompt?: string;
}

export interface SkillToolDependency {
  type: string;
  value: string;
  description?: string;
  transport?: string;
  command?: string;
  url?: string;
}

export interface SkillPolicy {
  allowImplicitInvocation: boolean;
  /** Empty means every product. */
  products: string[];
}

/** Agent Skills / Claude Code frontmatter fields kept for display; they grant nothing. */
export interface SkillExtraFields {
  license?: string;
  allowedTools?: string[];
  compatibility?: string;
  metadata?: Record<string, string>;
  /** Frontmatter `hooks:` as written (Claude Code's shape): they run while the skill is active (#24). */
  hooks?: Record<string, unknown>;
}

/**
 * A Claude Code command (`commands/*.md` of a plugin) loaded as an explicit-only skill: `$ns:cmd
 * rest of the line` injects its body with `$ARGUMENTS` and `$1`… replaced (issue 14 item 5).
 */
export interface SkillCommand {
  /** Frontmatter `argument-hint`, shown by `skills list`. */
  argumentHint?: string;
  /** Frontmatter `model`: kept as metadata; Trellis does not switch models for a command. */
  model?: string;
  /** A Gemini CLI command (`commands/*.toml`): its `prompt`, with `{{args}}`, is what is injected. */
  format?: "gemini";
}

export interface SkillMetadata {
  /** Qualified name: `<plugin namespace>:<name>` for plugin skills. */
  name: string;
  description: string;
  shortDescription?: string;
  interface?: SkillInterface;
  dependencies?: { tools: SkillToolDependency[] };
  policy: SkillPolicy;
  /** Canonical absolute path of SKILL.md (the skill's identity). */
  path: string;
  /** Directory holding SKILL.md. */
  dir: string;
  scope: SkillScope;
  /** The root (as configured) this skill was found under. */
  root: string;
  /** Every local skill is read through the local file system (SK-12). */
  authority: "local";
  plugin?: SkillPluginRef;
  extra: SkillExtraFields;
  /** Present when this skill is a plugin command; `path` is then the command's `.md` file. */
  command?: SkillCommand;
}

export interface SkillLoadError {
  path: string;
  message: string;
}

export type SkillRootStatus =
  | "ok"
  | "incomplete"
  | "missing"
  | "not_a_directory"
  | "duplicate"
  | "unreadable";

export interface SkillRootReport extends SkillRootSpec {
  /** Canonical path when the root exists. */
  canonical?: string;
  status: SkillRootStatus;
  /** For `duplicate`: the earlier root with the same real path. */
  duplicateOf?: string;
  dirsScanned: number;
  entriesScanned: number;
  skillsFound: number;
  watched: boolean;
}

/** A SKILL.md reached through more than one root: the first root keeps it. */
export interface SkillDuplicate {
  path: string;
  root: string;
  keptRoot: string;
}

export interface SkillsSnapshot {
  readonly cwd: string;
  /** Cache key of the config part (roots, scopes, plugins, rules). */
  readonly configKey: string;
  /** Every loaded skill, disabled ones included, in SK-2 order. */
  readonly skills: readonly SkillMetadata[];
  readonly errors: readonly SkillLoadError[];
  readonly warnings: readonly string[];
  readonly disabledPaths: ReadonlySet<string>;
  readonly roots: readonly SkillRootReport[];
  readonly duplicates: readonly SkillDuplicate[];
  /** SKILL.md path → the root it was found under. */
  readonly pathToRoot: ReadonlyMap<string, string>;
  /** Implicit-use indexes over enabled skills (SK-13). */
  readonly implicitIndex: {
    readonly skillFiles: ReadonlyMap<string, SkillMetadata>;
    readonly scriptDirs: ReadonlyMap<string, SkillMetadata>;
  };
  isEnabled(skill: SkillMetadata): boolean;
  enabledSkills(): SkillMetadata[];
  /**
   * Directories of every enabled skill, real paths (the walk starts at canonical roots and resolves
   * symlinks): `read_file` may read these read-only outside the workspace.
   */
  readableRoots(): string[];
}
