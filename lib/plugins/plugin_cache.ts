import type { LoadedConfig } from "../config/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { configuredPlugins, loadPlugins } from "./load_plugins.ts";
import type { PluginLoadResult } from "./plugin_types.ts";

/** The effective plugin set before and after a change: `<id>@<version>#<digest>` entries, sorted. */
export interface PluginSetChange {
  previous: string[];
  current: string[];
}

export type PluginChangeListener = (change: PluginSetChange) => void;

/**
 * Plugin load cache (PL-11). A generation counter keeps a load that started before `invalidate()`
 * from writing its stale result back; one permit serialises loads and the cache is checked again
 * after acquiring it, so concurrent steps share one load. When the effective set changes, listeners
 * hear about it (the app clears the skills cache and queues a best-effort MCP refresh). A result
 * already handed to a step is never mutated: new capabilities appear from the next `get`.
 */
export class PluginCache {
  #generation = 0;
  #cached: { generation: number; key: string; result: PluginLoadResult } | null = null;
  #permit: Promise<void> = Promise.resolve();
  #lastSet: string[] | null = null;
  #listeners = new Set<PluginChangeListener>();
  readonly #load: (loaded: LoadedConfig) => Promise<PluginLoadResult>;

  constructor(options: { platform: Platform; load?: (loaded: LoadedConfig) => Promise<PluginLoadResult> }) {
    this.#load = options.load ?? ((loaded) => loadPlugins({ loaded, platform: options.platform }));
  }

  get generation(): number {
    return this.#generation;
  }

  async get(loaded: LoadedConfig): Promise<PluginLoadResult> {
    const key = cacheKey(loaded);
    const hit = this.#hit(key);
    if (hit) return hit;
    const release = await this.#acquire();
    try {
      const second = this.#hit(key);
      if (second) return second;
      const generation = this.#generation;
      const result = await this.#load(loaded);
      if (generation === this.#generation) this.#cached = { generation, key, result };
      this.#noticeSet(result);
      return result;
    } finally {
      release();
    }
  }

  /** Drops the cached load; the next `get` reloads and reports a change of the effective set. */
  invalidate(): void {
    this.#generation++;
    this.#cached = null;
  }

  onChange(listener: PluginChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #hit(key: string): PluginLoadResult | null {
    const c = this.#cached;
    return c && c.generation === this.#generation && c.key === key ? c.result : null;
  }

  async #acquire(): Promise<() => void> {
    let release!: () => void;
    const previous = this.#permit;
    this.#permit = new Promise((resolve) => (release = resolve));
    await previous;
    return release;
  }

  #noticeSet(result: PluginLoadResult): void {
    const current = result.plugins.filter((p) => p.active).map((p) =>
      `${p.id}@${p.version}#${p.digest ?? ""}`
    ).sort();
    const previous = this.#lastSet;
    this.#lastSet = current;
    if (previous === null || previous.join("\n") === current.join("\n")) return;
    for (const listener of this.#listeners) {
      try {
        listener({ previous, current });
      } catch {
        // a listener's failure (a best-effort refresh) must not fail the step that loaded plugins
      }
    }
  }
}

function cacheKey(loaded: LoadedConfig): string {
  return JSON.stringify([loaded.paths.home, configuredPlugins(loaded)]);
}
