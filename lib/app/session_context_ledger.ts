import type { ModelRequest } from "../shared/mod.ts";
import { buildContextLedger, type ContextLedger } from "./context_ledger.ts";
import type { Session } from "./session.ts";
import { agentContexts } from "./agent_contexts.ts";
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
  const ledger = buildContextLedger(parts, counter, {
    ...(contextWindow ? { contextWindow } : {}),
    notes,
  });
  ledger.agents = await agentContexts(session.transcriptFolder, session.threadId, counter, {
    ...(contextWindow ? { contextWindow } : {}),
    instructionsOf: await session.agentInstructions(),
  });
  const exact = await providerCount(session, parts.request);
  if (typeof exact === "number") {
    ledger.providerTotal = { tokens: exact, source: "count_tokens" };
    ledger.share = contextWindow ? exact / contextWindow : null;
    notes.push("the provider counted the whole request (count_tokens); the rows are estimates of its parts");
  } else if (exact) ledger.warnings.push(exact.warning);
  return ledger;
}

/** Long enough for a count on a slow link; short enough that an offline `debug context` still answers. */
const COUNT_TOKENS_TIMEOUT_MS = 10_000;

/** The provider's count, a warning saying why there is none, or undefined where no wire has one. */
async function providerCount(
  session: Session,
  request: ModelRequest,
): Promise<number | { warning: string } | undefined> {
  const signal = AbortSignal.timeout(COUNT_TOKENS_TIMEOUT_MS);
  try {
    return await session.countRequestTokens(request, signal);
  } catch (error) {
    const reason = signal.aborted
      ? `no answer within ${COUNT_TOKENS_TIMEOUT_MS / 1000} s`
      : (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return {
      warning: `the provider could not count the request (count_tokens: ${reason}); counts are estimates`,
    };
  }
}
