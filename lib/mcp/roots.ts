import * as path from "node:path";
import { fileUrlOf } from "../platform/mod.ts";
import type { Root } from "./_sdk.ts";

/** Workspace roots as MCP `roots/list` entries: `file://` URIs named after their last segment. */
export function rootsFromPaths(paths: readonly string[]): Root[] {
  const seen = new Set<string>();
  const roots: Root[] = [];
  for (const p of paths) {
    const absolute = path.resolve(p);
    const uri = fileUrlOf(absolute);
    if (seen.has(uri)) continue;
    seen.add(uri);
    roots.push({ uri, name: path.basename(absolute) || absolute });
  }
  return roots;
}

/**
 * The runtime's current roots. Servers ask for them (`roots/list`) whenever they like; a change is
 * announced to every connected server with `notifications/roots/list_changed`.
 */
export class RootsState {
  #roots: Root[];
  #listeners = new Set<() => void>();

  constructor(paths: readonly string[]) {
    this.#roots = rootsFromPaths(paths);
  }

  get roots(): Root[] {
    return this.#roots;
  }

  /** Replaces the roots; returns false (and notifies nobody) when nothing changed. */
  set(paths: readonly string[]): boolean {
    const next = rootsFromPaths(paths);
    if (JSON.stringify(next) === JSON.stringify(this.#roots)) return false;
    this.#roots = next;
    for (const listener of this.#listeners) listener();
    return true;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
