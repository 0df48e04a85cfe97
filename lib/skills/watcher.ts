import type { Platform } from "../platform/mod.ts";
import type { SkillsSnapshot } from "./types.ts";

export interface SkillsWatchHandle {
  close(): void;
  /** False when the native watcher could not start (degraded to no watching, SK-15). */
  active: boolean;
  warning?: string;
}

export interface SkillsWatchOptions {
  throttleMs: number;
  onChange(paths: string[]): void;
}

/**
 * Watches the snapshot's non-plugin roots with the runtime's native watcher. Events within one
 * throttle window are batched into a single `onChange` with the distinct paths.
 */
export function watchSkillRoots(
  platform: Platform,
  snapshot: SkillsSnapshot,
  options: SkillsWatchOptions,
): SkillsWatchHandle {
  const paths = snapshot.roots.filter((r) => r.watched && r.canonical).map((r) => r.canonical!);
  if (paths.length === 0) return { close() {}, active: false };
  let pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const flush = () => {
    timer = undefined;
    const changed = [...pending].sort();
    pending = new Set();
    if (!closed) options.onChange(changed);
  };
  let watcher: { close(): void };
  try {
    watcher = platform.watch(paths, (event) => {
      if (closed) return;
      for (const p of event.paths) pending.add(p);
      timer ??= setTimeout(flush, options.throttleMs);
    });
  } catch (error) {
    const warning = `Cannot watch skill roots for changes: ${
      (error as Error).message
    }; skills reload on restart`;
    return { close() {}, active: false, warning };
  }
  return {
    active: true,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      watcher.close();
    },
  };
}
