import { type LoadedConfig, userControlledLayers } from "../config/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";

export interface HookStateEntry {
  enabled?: boolean;
  trustedHash?: string;
  /** What the hook runs, as trusted (#20 item 7): beside Codex's command hash, never folded into it. */
  contentHash?: string;
}

/**
 * `[hooks.state."<key>"]` merged field by field from the user layer and `-c` flags only (HK-3): a
 * project or plugin config can never declare its own hooks trusted or enabled.
 */
export function readHookState(
  loaded: LoadedConfig,
): { state: Map<string, HookStateEntry>; diagnostics: Diagnostic[] } {
  const state = new Map<string, HookStateEntry>();
  const diagnostics: Diagnostic[] = [];
  for (const layer of userControlledLayers(loaded)) {
    const table = layer.table.hooks?.state;
    if (!table) continue;
    for (const [key, raw] of Object.entries(table)) {
      const where = () => ({ file: layer.source, field: `hooks.state.${JSON.stringify(key)}` });
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
        diagnostics.push(
          warning(`invalid hook state for "${key}" in ${layer.source}: expected a table`, where()),
        );
        continue;
      }
      const entry = { ...state.get(key) };
      const { enabled, trusted_hash, content_hash } = raw as Record<string, unknown>;
      if (typeof enabled === "boolean") entry.enabled = enabled;
      else if (enabled !== undefined) {
        diagnostics.push(
          warning(`invalid hooks.state enabled for "${key}" in ${layer.source}: not a boolean`, where()),
        );
      }
      if (typeof trusted_hash === "string") entry.trustedHash = trusted_hash;
      else if (trusted_hash !== undefined) {
        diagnostics.push(
          warning(`invalid trusted_hash for "${key}" in ${layer.source}: not a string`, where()),
        );
      }
      if (typeof content_hash === "string") entry.contentHash = content_hash;
      else if (content_hash !== undefined) {
        diagnostics.push(
          warning(`invalid content_hash for "${key}" in ${layer.source}: not a string`, where()),
        );
      }
      state.set(key, entry);
    }
  }
  return { state, diagnostics };
}
