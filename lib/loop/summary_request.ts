import type { ConversationItem, Usage } from "../shared/mod.ts";
import { addUsage, CancelledError, emptyUsage, TrellisError } from "../shared/mod.ts";
import type { ModelClient } from "./ports.ts";

/**
 * Whether the provider refused a request for being larger than the model's window: OpenAI's
 * `context_length_exceeded` (an HTTP 400, or a `response.failed` in the stream), Anthropic's
 * "prompt is too long: N tokens > M maximum" (an HTTP 400) or `model_context_window_exceeded` stop.
 */
export function isContextWindowError(error: unknown): boolean {
  if (!(error instanceof TrellisError) || error.code !== "model_http") return false;
  const code = error.data.providerCode;
  if (code === "context_length_exceeded" || code === "model_context_window_exceeded") return true;
  return error.data.status === 400 &&
    /context.?(window|length)|maximum context|prompt is too long/i.test(error.message);
}

/**
 * One summarization request to the session's model, tools not declared (Codex's compact task): the
 * history, then the summarization prompt as a user message. The answer's text is not streamed to
 * anyone; the last assistant message is the summary. When the provider says the request exceeds
 * the window, the oldest items are dropped and it is asked again (Codex trims the same way), a call
 * and its output always together.
 */
export async function requestSummary(
  model: ModelClient,
  request: { modelName: string; instructions: string; history: readonly ConversationItem[]; prompt: string },
  signal: AbortSignal,
): Promise<{ summary: string; usage: Usage; trimmed: number }> {
  let history = [...request.history];
  const usage = emptyUsage();
  let trimmed = 0;
  for (;;) {
    try {
      const answer = await sampleText(model, {
        model: request.modelName,
        instructions: request.instructions,
        input: [...history, { type: "message", role: "user", content: request.prompt }],
        tools: [],
        parallelToolCalls: false,
      }, signal);
      return { summary: answer.text.trim(), usage: addUsage(usage, answer.usage), trimmed };
    } catch (error) {
      if (signal.aborted) throw new CancelledError();
      if (!isContextWindowError(error) || history.length === 0) throw error;
      const dropped = dropOldest(history);
      trimmed += history.length - dropped.length;
      history = dropped;
    }
  }
}

function dropOldest(history: ConversationItem[]): ConversationItem[] {
  let start = 1;
  // An output whose call was dropped would be refused (no call with that id): it goes too.
  while (start < history.length && history[start].type === "function_call_output") start++;
  return history.slice(start);
}

async function sampleText(
  model: ModelClient,
  request: Parameters<ModelClient["stream"]>[0],
  signal: AbortSignal,
): Promise<{ text: string; usage: Usage }> {
  let text = "";
  for await (const event of model.stream(request, signal)) {
    if (event.type === "item_done" && event.item.type === "message" && event.item.role === "assistant") {
      text = event.item.content;
    } else if (event.type === "completed") {
      return { text, usage: event.usage };
    }
  }
  throw new TrellisError(
    "model_protocol",
    "Cannot read the summary: the model stream ended before it completed",
  );
}
