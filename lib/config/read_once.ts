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
): ReadOnce<T> {
  const cache = new WeakMap<TrellisPaths, { result: T; reported: boolean }>();
  const get = (fs: FileSystem, paths: TrellisPaths) => {
    let entry = cache.get(paths);
    if (!entry) cache.set(paths, entry = { result: read(fs, paths), reported: false });
    return entry;
  };
  const reader = (fs: FileSystem, paths: TrellisPaths): T => {
    const entry = get(fs, paths);
    if (entry.reported) return { ...entry.result, diagnostics: [] };
    entry.reported = true;
    return entry.result;
  };
  // What the file holds without taking its warnings: they stay for the first reader that reports.
  reader.peek = (fs: FileSystem, paths: TrellisPaths): T => ({ ...get(fs, paths).result, diagnostics: [] });
  return reader;
}

/** A read-once reader, and `peek`: the same read that leaves its diagnostics to the next caller. */
export type ReadOnce<T> = ((fs: FileSystem, paths: TrellisPaths) => T) & {
  peek(fs: FileSystem, paths: TrellisPaths): T;
};

/** A read failure's code, or "" (ENOENT and ENOTDIR mean the file is simply not there). */
export function errorCode(error: unknown): string {
  return String((error as { code?: string })?.code ?? "");
}
