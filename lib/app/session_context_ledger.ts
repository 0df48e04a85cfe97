import { buildContextLedger, type ContextLedger } from "./context_ledger.ts";
import type { Session } from "./session.ts";
import { type EncodingImport, loadTokenCounter } from "./token_counter.ts";

/**
 * The context ledger of `session`'s next request (#17 item 3): `trellis debug context` on a preview
 * session, `/context` on the live one (its real history). The tokenizer loads here, on demand.
 */
export async function sessionContextLedger(
  session: Session,
  options: {
    prompt?: string;
    skills?: string[];
    preview: boolean;
    /** Replaces how the tokenizer is loaded; tests hand it a load that fails. */
    importEncoding?: EncodingImport;
  },
): Promise<ContextLedger> {
  const info = session.info();
  const [parts, counter] = await Promise.all([
    session.previewRequestParts(options.prompt ?? "", options.skills ?? []),
    loadTokenCounter(info.model, options.importEncoding),
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
  // A live session's ledger uses the session's own window, the one /status shows (#21 item 6).
  const live = options.preview ? null : session.context();
  if (live?.windowAssumed) {
    notes.push(
      `window ${
        live.contextWindow.toLocaleString("en-US")
      } tokens is assumed: set model_context_window for this model`,
    );
  }
  const contextWindow = live ? live.contextWindow : info.contextWindow;
  return buildContextLedger(parts, counter, {
    ...(contextWindow ? { contextWindow } : {}),
    notes,
  });
}
