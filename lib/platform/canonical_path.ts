import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import * as nodePath from "node:path";

const MAX_LINK_HOPS = 40;

/**
 * The absolute path a file operation on `path` would really touch: `..` and symlinks resolved, and
 * for a path that does not exist yet, the deepest existing ancestor resolved (dangling links followed)
 * with the rest appended. Synchronous because permission checks run inside synchronous approval.
 */
export function canonicalPath(path: string, hops = 0): string {
  const absolute = nodePath.resolve(path);
  const info = lstatQuietly(absolute);
  if (info) {
    try {
      return realpathSync(absolute);
    } catch {
      // a dangling or looping symlink: followed by hand below
    }
    if (info.isSymbolicLink() && hops < MAX_LINK_HOPS) {
      const parent = canonicalPath(nodePath.dirname(absolute), hops);
      return canonicalPath(nodePath.resolve(parent, readlinkSync(absolute)), hops + 1);
    }
  }
  const parent = nodePath.dirname(absolute);
  if (parent === absolute) return absolute;
  return nodePath.join(canonicalPath(parent, hops), nodePath.basename(absolute));
}

// Without exceptions for missing entries: a permission check on a new file must stay cheap.
function lstatQuietly(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR, EACCES, ELOOP: treat as not there
  }
}
