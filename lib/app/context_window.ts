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

/**
 * The window assumed for a model whose window nobody stated: small enough for every current
 * hosted model (128k and up), so compaction comes early rather than after the provider refuses, and
 * MCP tool search defers a server's tools before they crowd the request (#21 item 17). One figure
 * for all of Trellis.
 */
export const ASSUMED_CONTEXT_WINDOW = 128_000;

/** The known window, or the assumed one (and that it is assumed, so a caller can say so). */
export function contextWindowOrAssumed(config: TrellisConfig): { tokens: number; assumed: boolean } {
  const known = resolveContextWindow(config);
  return known ? { tokens: known, assumed: false } : { tokens: ASSUMED_CONTEXT_WINDOW, assumed: true };
}
