import * as path from "node:path";
import { canonicalPath, type FileSystem, HOME_PROTECTED_PATHS } from "../platform/mod.ts";

export interface TrellisPaths {
  /** $TRELLIS_HOME, default ~/.trellis. */
  home: string;
  userConfig: string;
  /** /etc/trellis (overridable for tests with TRELLIS_SYSTEM_DIR). */
  systemDir: string;
  /**
   * The working directory's real path (symlinks resolved), once: trust lookups, the workspace, the
   * sandbox and every later comparison use this one path, never the one typed (`-C link`).
   */
  cwd: string;
  /** Nearest ancestor of cwd holding a project root marker (.git), else cwd; a real path too. */
  projectRoot: string;
  /** Every directory from the project root down to cwd, root first. */
  projectDirs: string[];
  userHome: string;
  /** Codex's home: `$CODEX_HOME`, default `~/.codex` (config.toml, hooks.json, skills/, AGENTS.md). */
  codexHome: string;
  /** Claude Code's config dir: `$CLAUDE_CONFIG_DIR`, default `~/.claude` (settings.json, skills/, plugins/). */
  claudeDir: string;
  /**
   * Claude Code's state file: `$CLAUDE_CONFIG_DIR/.claude.json` when that variable is set, else
   * `~/.claude.json` — beside the config dir, not in it, as Claude Code places it.
   */
  claudeJson: string;
  /** Gemini CLI's user dir: `$GEMINI_CLI_HOME/.gemini`, default `~/.gemini` (settings.json, extensions/). */
  geminiDir: string;
  /** GitHub Copilot CLI's home: `$COPILOT_HOME`, default `~/.copilot` (hooks/*.json). */
  copilotHome: string;
}

export function resolvePaths(
  fs: FileSystem,
  options: { cwd: string; env: (name: string) => string | undefined; markers?: string[] },
): TrellisPaths {
  const userHome = options.env("HOME") ?? "/";
  const home = path.resolve(options.env("TRELLIS_HOME") ?? path.join(userHome, ".trellis"));
  const cwd = canonicalPath(path.resolve(options.cwd));
  // Both peers treat an empty variable as unset (`process.env.CLAUDE_CONFIG_DIR || homedir()`).
  const claudeConfigDir = options.env("CLAUDE_CONFIG_DIR") || undefined;
  const codexHome = options.env("CODEX_HOME") || undefined;
  const geminiHome = options.env("GEMINI_CLI_HOME") || undefined;
  const copilotHome = options.env("COPILOT_HOME") || undefined;
  const projectRoot = findProjectRoot(fs, cwd, options.markers ?? [".git"]);
  return {
    home,
    userConfig: path.join(home, "config.toml"),
    systemDir: path.resolve(options.env("TRELLIS_SYSTEM_DIR") ?? "/etc/trellis"),
    cwd,
    projectRoot,
    projectDirs: dirsBetween(projectRoot, cwd),
    userHome,
    codexHome: path.resolve(userHome, codexHome ?? ".codex"),
    claudeDir: path.resolve(userHome, claudeConfigDir ?? ".claude"),
    claudeJson: path.resolve(userHome, claudeConfigDir ?? ".", ".claude.json"),
    geminiDir: path.resolve(userHome, geminiHome ?? ".", ".gemini"),
    copilotHome: path.resolve(userHome, copilotHome ?? ".copilot"),
  };
}

function findProjectRoot(fs: FileSystem, cwd: string, markers: string[]): string {
  if (markers.length === 0) return cwd;
  let dir = cwd;
  while (true) {
    for (const marker of markers) {
      // Blocking: a handful of lstat calls, most answering "not there", at every start.
      if (fs.sync.lstat(path.join(dir, marker))) return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return cwd;
    dir = parent;
  }
}

/** Directories from `top` down to `bottom` inclusive (bottom must be inside top). */
export function dirsBetween(top: string, bottom: string): string[] {
  const rel = path.relative(top, bottom);
  const dirs = [top];
  if (rel === "" || rel.startsWith("..")) return dirs;
  let current = top;
  for (const part of rel.split(path.sep)) {
    current = path.join(current, part);
    dirs.push(current);
  }
  return dirs;
}

/**
 * The user-level files Trellis reads in place — `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`),
 * Claude Code's config dir, `$CODEX_HOME`, `$TRELLIS_HOME`, `~/.agents`, Gemini CLI's `~/.gemini` and
 * Copilot CLI's `~/.copilot` (#24 item 3) — and the home directory's
 * credentials and shell start-up files: the file tools and the sandbox keep each read-only wherever it
 * falls inside a writable root (#20 items 2 and 5), so nothing a session writes there runs later.
 */
export function userProtectedPaths(paths: TrellisPaths): string[] {
  const home = paths.userHome;
  const all = [
    paths.claudeJson,
    path.join(home, ".claude.json"),
    paths.claudeDir,
    path.join(home, ".claude"),
    paths.codexHome,
    path.join(home, ".codex"),
    paths.home,
    path.join(home, ".agents"),
    paths.geminiDir,
    paths.copilotHome,
    ...HOME_PROTECTED_PATHS.map((name) => path.join(home, name)),
  ];
  return [...new Set(all)];
}
