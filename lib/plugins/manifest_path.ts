import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";

/**
 * Manifest path rules (PL-2). The lexical check is pure; `containedRealPath` adds the symlink check,
 * so a path that looks fine but resolves outside the plugin root is never read.
 */

export type ManifestPathCheck = { ok: true; relative: string } | { ok: false; reason: string };

export function checkManifestPath(value: string): ManifestPathCheck {
  if (/^[A-Za-z]:[\\/]/.test(value) || value.startsWith("\\\\") || value.startsWith("/")) {
    return { ok: false, reason: "path must be relative to plugin root, not absolute" };
  }
  if (!value.startsWith("./")) {
    return { ok: false, reason: "path must start with `./` relative to plugin root" };
  }
  const rest = value.slice(2);
  const parts = rest.split(/[\\/]/).filter((p) => p !== "" && p !== ".");
  if (parts.length === 0) return { ok: false, reason: "path must not be just `./`" };
  if (rest.split(/[\\/]/).some((p) => p === "..")) {
    return { ok: false, reason: "path must not contain `..`" };
  }
  if (parts.some((p) => /^[A-Za-z]:/.test(p))) {
    return { ok: false, reason: "path must be relative to plugin root, not absolute" };
  }
  return { ok: true, relative: parts.join("/") };
}

/** True when `child` equals `root` or lies beneath it (both absolute, already canonical). */
export function isWithin(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * The canonical path of `root/relative` if it exists and stays under the canonical root; null when
 * it does not exist; "outside" when a symlink leads out of the plugin.
 */
export async function containedRealPath(
  fs: FileSystem,
  root: string,
  relative: string,
): Promise<string | null | "outside"> {
  const joined = path.join(root, relative);
  if (!(await fs.lstat(joined))) return null;
  let real: string;
  try {
    real = await fs.realPath(joined);
  } catch {
    return null; // a dangling symlink
  }
  return isWithin(await fs.realPath(root), real) ? real : "outside";
}
