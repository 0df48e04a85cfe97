import type { Platform } from "../platform/mod.ts";
import { buildContextLedger, type ContextLedger } from "./context_ledger.ts";
import type { Session } from "./session.ts";
import { loadTokenCounter } from "./token_counter.ts";

/** Names a module to import instead of the tokenizer's: tests make the load fail with it. */
export const TOKENIZER_MODULE_ENV = "TRELLIS_TOKENIZER_MODULE";

/**
 * The context ledger of `session`'s next request (#17 item 3): `trellis debug context` on a preview
 * session, `/context` on the live one (its real history). The tokenizer loads here, on demand.
 */
export async function sessionContextLedger(
  session: Session,
  platform: Platform,
  options: { prompt?: string; skills?: string[]; preview: boolean },
): Promise<ContextLedger> {
  const info = session.info();
  const [parts, counter] = await Promise.all([
    session.previewRequestParts(options.prompt ?? "", options.skills ?? []),
    loadTokenCounter(info.model, platform.env(TOKENIZER_MODULE_ENV) || undefined),
  ]);
  const notes = options.preview
    ? [
      "hooks do not run for a preview: context SessionStart and UserPromptSubmit hooks would add is " +
      "not counted (/context in a session counts what they added)",
    ]
    : [];
  if (counter.encoding === "estimate" && !counter.warning) {
    notes.push(
      `no public tokenizer is known for ${info.model || "this model"}: counts are estimates (characters / 4)`,
    );
  }
  return buildContextLedger(parts, counter, {
    ...(info.contextWindow ? { contextWindow: info.contextWindow } : {}),
    notes,
  });
}
