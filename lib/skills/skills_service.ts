import type { Platform } from "../platform/mod.ts";
import type { EventSink } from "../shared/mod.ts";
import { loadSkillsSnapshot } from "./load_skills_snapshot.ts";
import { skillsConfigKey, type SkillsInput } from "./skills_input.ts";
import type { SkillsSnapshot } from "./types.ts";
import { type SkillsWatchHandle, type SkillsWatchOptions, watchSkillRoots } from "./watcher.ts";

export interface SkillsService {
  /** The snapshot for this cwd and config, from cache when nothing was invalidated. */
  snapshot(input: SkillsInput): Promise<SkillsSnapshot>;
  /** Drops every cached snapshot; snapshots already handed out stay valid (a turn keeps its own). */
  clearCache(): void;
  /** Native watcher on the snapshot's roots: clears the cache, emits `skills.changed`, calls onChange. */
  watch(snapshot: SkillsSnapshot, options: SkillsWatchOptions): SkillsWatchHandle;
}

/** One per process; sessions with different cwd or rules get different cache entries (SK-8). */
export function createSkillsService(options: { platform: Platform; events?: EventSink }): SkillsService {
  const { platform } = options;
  const emit = options.events ?? (() => {});
  let cache = new Map<string, Promise<SkillsSnapshot>>();
  const service: SkillsService = {
    snapshot(input) {
      const key = `${input.cwd}\u0000${skillsConfigKey(input)}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const owner = cache;
      const loading = loadSkillsSnapshot(platform.fs, input);
      owner.set(key, loading);
      // A failed load must not poison the cache; a load finished after clearCache lands in the old map.
      loading.catch(() => owner.get(key) === loading && owner.delete(key));
      return loading;
    },
    clearCache() {
      cache = new Map();
    },
    watch(snapshot, watchOptions) {
      const handle = watchSkillRoots(platform, snapshot, {
        throttleMs: watchOptions.throttleMs,
        onChange(paths) {
          service.clearCache();
          emit({ type: "skills.changed", paths });
          watchOptions.onChange(paths);
        },
      });
      if (handle.warning) emit({ type: "warning", message: handle.warning, subject: "skills" });
      return handle;
    },
  };
  return service;
}
