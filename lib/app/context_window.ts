import type { TrellisConfig } from "../config/mod.ts";
import { knownContextWindow } from "../model/mod.ts";

/**
 * The model's context window: `model_context_window` from config when set, else the built-in figure
 * for the model's family (lib/model/model_families.ts), else undefined (budgets use their fallback).
 * Resolved here, in the composition root, so skills and MCP never depend on the model subsystem.
 */
export function resolveContextWindow(config: TrellisConfig): number | undefined {
  return config.model_context_window ?? knownContextWindow(config.model);
}
