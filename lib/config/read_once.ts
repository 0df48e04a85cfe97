import type { FileSystem } from "../platform/mod.ts";
import type { Diagnostic } from "../shared/mod.ts";
import type { TrellisPaths } from "./paths.ts";

/**
 * A peer file's reader that reads at most once per resolved `TrellisPaths` — one per process in
 * practice, since a session and its derived configs share that object — so a large file (Claude
 * Code's `~/.claude.json` can be megabytes) is parsed once however many subsystems ask. Its
 * diagnostics go to the first caller only: a broken file is one warning, not one per subsystem.
 */
export function readOncePerPaths<T extends { diagnostics: Diagnostic[] }>(
  read: (fs: FileSystem, paths: TrellisPaths) => T,
): (fs: FileSystem, paths: TrellisPaths) => T {
  const cache = new WeakMap<TrellisPaths, T>();
  return (fs, paths) => {
    const cached = cache.get(paths);
    if (cached) return { ...cached, diagnostics: [] };
    const result = read(fs, paths);
    cache.set(paths, result);
    return result;
  };
}

/** A read failure's code, or "" (ENOENT and ENOTDIR mean the file is simply not there). */
export function errorCode(error: unknown): string {
  return String((error as { code?: string })?.code ?? "");
}
