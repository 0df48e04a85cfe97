import { lstatSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";

/**
 * Names that stay read-only inside a writable root: each holds configuration that runs code outside
 * the sandbox later (git hooks, `.trellis/config.toml`, `.mcp.json` servers, `.claude/settings.json`
 * hooks, `.codex/config.toml`) or instructions the next session trusts (`.agents/skills`). Codex keeps
 * `.git`, `.codex` and `.agents` read-only for the same reason.
 */
export const PROTECTED_NAMES = [".git", ".trellis", ".codex", ".claude", ".agents", ".mcp.json"] as const;

export class SandboxProfileError extends Error {
  readonly code = "sandbox_profile";
}

/** What the profile does with one protected path. */
export type ProtectedMount =
  /** Exists: bound read-only over itself. */
  | { kind: "existing"; path: string; root: string }
  /** Missing: `/dev/null` bound on its first missing component, which bwrap creates as a mount point. */
  | { kind: "placeholder"; path: string; root: string };

/** True when `path` is `root` or below it (both absolute and canonical). */
export function isWithinPath(root: string, path: string): boolean {
  if (root === "/") return path.startsWith("/");
  return path === root || path.startsWith(root + "/");
}

function lstatQuietly(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The deepest writable root holding `path`, if any. */
export function nearestRoot(roots: string[], path: string): string | undefined {
  return roots.filter((root) => isWithinPath(root, path)).sort((a, b) => b.length - a.length)[0];
}

/** Directories from `top` down to `bottom`, both included (bottom inside top). */
function chain(top: string, bottom: string): string[] {
  const dirs = [top];
  const rest = nodePath.relative(top, bottom);
  if (rest === "" || rest.startsWith("..")) return dirs;
  for (const part of rest.split("/")) dirs.push(nodePath.join(dirs.at(-1)!, part));
  return dirs;
}

/** `gitdir: <path>` of a worktree or submodule `.git` file, resolved against its directory. */
function gitdirOf(dotGit: string): string | undefined {
  try {
    const text = readFileSync(dotGit, "utf8").trim();
    const match = /^gitdir:\s*(.+)$/m.exec(text);
    return match ? nodePath.resolve(nodePath.dirname(dotGit), match[1].trim()) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The real git directories behind a `.git` file: its `gitdir:` and, for a worktree, the common
 * directory its `commondir` names, which holds the hooks and config every worktree runs (#20
 * item 18). Only directories that exist.
 */
export function gitDirsOf(dotGit: string): string[] {
  const gitdir = gitdirOf(dotGit);
  if (!gitdir || !lstatQuietly(gitdir)?.isDirectory()) return [];
  let common: string | undefined;
  try {
    common = nodePath.resolve(gitdir, readFileSync(nodePath.join(gitdir, "commondir"), "utf8").trim());
  } catch {
    common = undefined;
  }
  return common && common !== gitdir && lstatQuietly(common)?.isDirectory() ? [gitdir, common] : [gitdir];
}

/**
 * The protected paths of a profile. Existing protected names are kept read-only in every writable
 * root; missing ones are kept from being created in each directory from the root down to the working
 * directory (where a later session looks for its configuration) and for `$TRELLIS_HOME`. A protected
 * name that is a symbolic link cannot be held (the link itself stays replaceable in its writable
 * parent), so it throws a SandboxProfileError naming it.
 */
export function protectedMounts(roots: string[], cwd: string, trellisHome?: string): ProtectedMount[] {
  const wanted = new Map<string, boolean>(); // path → protect even when missing
  for (const root of roots) {
    for (const name of PROTECTED_NAMES) wanted.set(nodePath.join(root, name), false);
  }
  const cwdRoot = nearestRoot(roots, cwd);
  if (cwdRoot) {
    for (const dir of chain(cwdRoot, cwd)) {
      for (const name of PROTECTED_NAMES) wanted.set(nodePath.join(dir, name), true);
    }
  }
  if (trellisHome && nearestRoot(roots, trellisHome)) wanted.set(trellisHome, true);
  const mounts: ProtectedMount[] = [];
  for (const [path, evenMissing] of wanted) {
    const root = nearestRoot(roots, path);
    if (!root || roots.includes(path)) continue; // a configured writable root stays writable
    const info = lstatQuietly(path);
    if (info?.isSymbolicLink()) {
      throw new SandboxProfileError(
        `protected path "${path}" is a symbolic link, which the sandbox cannot keep read-only`,
      );
    }
    if (info) mounts.push({ kind: "existing", path, root });
    else if (evenMissing) mounts.push({ kind: "placeholder", path: firstMissing(root, path), root });
    if (info?.isFile() && nodePath.basename(path) === ".git") {
      for (const gitdir of gitDirsOf(path)) {
        const gitRoot = nearestRoot(roots, gitdir);
        if (gitRoot) mounts.push({ kind: "existing", path: gitdir, root: gitRoot });
      }
    }
  }
  return dedupe(mounts);
}

function firstMissing(root: string, path: string): string {
  for (const dir of chain(root, path)) if (!lstatQuietly(dir)) return dir;
  return path;
}

/** One mount per path, none inside an existing protected directory (already read-only), shortest first. */
function dedupe(mounts: ProtectedMount[]): ProtectedMount[] {
  const seen = new Set<string>();
  const unique = mounts.filter((m) => !seen.has(m.path) && seen.add(m.path));
  return unique.filter((m) => !insideExisting(unique, m.path)).sort((a, b) => a.path.length - b.path.length);
}

function insideExisting(mounts: ProtectedMount[], path: string): boolean {
  return mounts.some((m) => m.kind === "existing" && m.path !== path && isWithinPath(m.path, path));
}

/**
 * Mount arguments for the protected paths. Each directory between a path's writable root and the
 * path is bound onto itself first: a mount point cannot be renamed, so the sandbox cannot move a
 * protected path's parent aside and create a fresh, unprotected one in its place.
 */
export function protectedArgs(mounts: ProtectedMount[]): string[] {
  const pins = new Set<string>();
  for (const mount of mounts) {
    const dirs = chain(mount.root, nodePath.dirname(mount.path)).slice(1);
    for (const dir of dirs) if (!insideExisting(mounts, dir)) pins.add(dir);
  }
  return [
    ...[...pins].sort((a, b) => a.length - b.length).flatMap((dir) => ["--bind", dir, dir]),
    ...mounts.flatMap((m) =>
      m.kind === "existing" ? ["--ro-bind", m.path, m.path] : ["--ro-bind", "/dev/null", m.path]
    ),
  ];
}
