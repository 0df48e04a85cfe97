import * as nodeFs from "node:fs";
import * as nodePath from "node:path";
import process from "node:process";

/**
 * `$TRELLIS_HOME` holds transcripts, credentials, hook output spills, MCP stderr logs, prompt
 * history and caches: nothing another local user may read (#20 item 13). Every write the file
 * system makes below a directory registered here creates directories 0700 and files 0600 (a mode
 * a caller asks for keeps only its owner bits: a plugin's script stays executable, by its owner),
 * whatever the umask. One rule in the one file system, so a new writer under the home cannot forget
 * it; writes anywhere else (the workspace) keep the umask's modes.
 */

const roots = new Set<string>();

/** Registers `dir` (absolute) as private; `/` and a directory holding $HOME are refused (false). */
export function keepPrivate(dir: string, userHome?: string): boolean {
  const root = nodePath.resolve(dir);
  if (root === "/" || (userHome && within(root, nodePath.resolve(userHome)))) return false;
  roots.add(root);
  return true;
}

function within(root: string, file: string): boolean {
  return file === root || file.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/** The private root `path` falls under, if any. */
function rootOf(path: string): string | undefined {
  if (roots.size === 0) return undefined;
  const absolute = nodePath.resolve(path);
  for (const root of roots) if (within(root, absolute)) return root;
  return undefined;
}

/**
 * The mode to create a file at `path` with: below a private root, `requested` (default 0600)
 * without group and other bits; elsewhere `requested` as given (undefined: the umask decides).
 */
export function fileMode(path: string, requested?: number): number | undefined {
  if (!rootOf(path)) return requested;
  return (requested ?? 0o600) & 0o700;
}

/** True when `path` is below a private root: the caller chmods what it copied or renamed in. */
export function isPrivatePath(path: string): boolean {
  return rootOf(path) !== undefined;
}

/**
 * `mkdir -p`: below a private root every directory it creates (the root itself included) is 0700;
 * the root's own parents, when missing, are made as any other directory.
 */
export function makeDirectory(path: string): void {
  const root = rootOf(path);
  if (!root) {
    nodeFs.mkdirSync(path, { recursive: true });
    return;
  }
  nodeFs.mkdirSync(nodePath.dirname(root), { recursive: true });
  nodeFs.mkdirSync(path, { recursive: true, mode: 0o700 });
}

/**
 * An existing private root, and the directories Trellis made in it, opened to others by an earlier
 * version (0755): each is set to 0700. Returns what changed (path and old mode), for one warning.
 * Files below keep their modes: a 0700 directory already closes them to everyone else.
 */
export function tightenPrivateTree(
  root: string,
  children: readonly string[],
): { path: string; mode: number }[] {
  const changed: { path: string; mode: number }[] = [];
  for (const dir of [root, ...children.map((c) => nodePath.join(root, c))]) {
    let info: nodeFs.Stats;
    try {
      info = nodeFs.lstatSync(dir);
    } catch {
      continue;
    }
    // Only real directories this user owns: never through a symlink, never someone else's.
    if (!info.isDirectory() || (process.getuid && info.uid !== process.getuid())) continue;
    if ((info.mode & 0o077) === 0) continue;
    nodeFs.chmodSync(dir, 0o700);
    changed.push({ path: dir, mode: info.mode & 0o777 });
  }
  return changed;
}
