import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, UsageError, warning } from "../shared/mod.ts";
import { readCodexConfig } from "./codex_config_file.ts";
import { BUILT_IN_PROVIDERS } from "./defaults.ts";
import type { ConfigLayer } from "./loaded_config.ts";
import type { TrellisPaths } from "./paths.ts";
import type { TrellisConfig } from "./schema/mod.ts";
import { validateLayer } from "./validate.ts";

/**
 * The layer a Codex user's `config.toml` contributes (issue #21 item 8): only the keys that choose a
 * model — `model`, `model_reasoning_effort`, `model_context_window`, `model_provider`,
 * `model_providers` — each validated by Trellis's schema; a bad value is one warning naming the file
 * and key, and the rest is taken. A `model_provider` that neither Trellis nor any config layer (this
 * one included) defines is left out with a warning, so an unknown Codex provider never stops a start.
 * It sits beneath Trellis's user config: what Trellis's own files say wins.
 */
export function codexModelLayer(
  fs: FileSystem,
  paths: TrellisPaths,
  ownTables: TrellisConfig[],
): { layer?: ConfigLayer; diagnostics: Diagnostic[] } {
  // Its read problems are left to the MCP and hook readers of the same file, which report them once.
  const read = readCodexConfig.peek(fs, paths).items;
  const diagnostics: Diagnostic[] = [];
  if (!read || Object.keys(read.modelKeys).length === 0) return { diagnostics };
  const file = read.file;
  const table: TrellisConfig = {};
  for (const [key, raw] of Object.entries(read.modelKeys)) {
    try {
      const checked = validateLayer({ [key]: raw }, { file });
      // Keys of Codex's own that Trellis's provider table lacks: a note, not a warning at each start.
      diagnostics.push(...checked.diagnostics.map((d) => ({ ...d, level: "info" as const })));
      Object.assign(table, checked.value);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      diagnostics.push(
        warning(`Ignored ${key} in Codex config "${file}": ${error.message}`, { file, field: key }),
      );
    }
  }
  const provider = table.model_provider;
  if (provider !== undefined) {
    const known = new Set([
      ...Object.keys(BUILT_IN_PROVIDERS),
      ...Object.keys(table.model_providers ?? {}),
      ...ownTables.flatMap((t) => Object.keys(t.model_providers ?? {})),
    ]);
    if (!known.has(provider)) {
      delete table.model_provider;
      diagnostics.push(warning(
        `Ignored model_provider = "${provider}" in Codex config "${file}": Trellis knows no provider ` +
          `"${provider}" (known: ${[...known].sort().join(", ")}); define [model_providers.${provider}] ` +
          "in your Trellis config to use it",
        { file, field: "model_provider" },
      ));
    }
  }
  return { layer: { kind: "codex", source: file, table }, diagnostics };
}
