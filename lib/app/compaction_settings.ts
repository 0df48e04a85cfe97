import type { TrellisConfig } from "../config/mod.ts";
import type { CompactionSettings } from "../loop/mod.ts";
import { ASSUMED_CONTEXT_WINDOW, resolveContextWindow } from "./context_window.ts";

/** The window assumed for a model whose window nobody stated (lib/app/context_window.ts). */
export const FALLBACK_CONTEXT_WINDOW = ASSUMED_CONTEXT_WINDOW;

/** Tool outputs of the last 3 user turns survive an automatic compaction's elision (see README). */
export const DEFAULT_ELIDE_AFTER_TURNS = 3;

/**
 * The model's context window as far as it is known: `model_context_window`, else the built-in
 * figure for the model's family (lib/model/model_families.ts), else null.
 */
export function knownContextWindow(config: TrellisConfig): number | null {
  return resolveContextWindow(config) ?? null;
}

/**
 * Codex's rule (`ModelInfo::auto_compact_token_limit`): 90% of the window, or the configured
 * `model_auto_compact_token_limit` when lower. A configured limit over 90% of a window that is only
 * the fallback guess is taken as written.
 */
export function autoCompactTokenLimit(config: TrellisConfig): number {
  const window = knownContextWindow(config);
  const configured = config.model_auto_compact_token_limit;
  if (window === null) return configured ?? Math.floor(FALLBACK_CONTEXT_WINDOW * 0.9);
  const fromWindow = Math.floor(window * 0.9);
  return configured === undefined ? fromWindow : Math.min(configured, fromWindow);
}

export function compactionSettings(config: TrellisConfig): CompactionSettings {
  return {
    autoLimit: autoCompactTokenLimit(config),
    elideAfterTurns: config.elide_tool_outputs_after_turns ?? DEFAULT_ELIDE_AFTER_TURNS,
    ...(config.compact_prompt ? { prompt: config.compact_prompt } : {}),
  };
}
