import type { ConversationItem, ToolDeclaration, Usage } from "../shared/mod.ts";

/**
 * Approximate tokens of a text: one per 4 characters, rounded up — Codex's `approx_token_count`
 * (bytes / 4), counted in UTF-16 units so no string is encoded just to be measured. Used only where
 * the model has not reported a count yet; its error matters at the threshold, not in general.
 */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Per-item framing the wire adds (role, type, ids), in tokens. */
const ITEM_OVERHEAD = 4;

export function estimateItemTokens(item: ConversationItem): number {
  switch (item.type) {
    case "message":
      return ITEM_OVERHEAD + approxTokens(item.content);
    case "reasoning": {
      // Encrypted reasoning content, where a provider returns it, goes back to the model too.
      const encrypted = (item as { encryptedContent?: unknown }).encryptedContent;
      return ITEM_OVERHEAD + approxTokens(item.summary) +
        (typeof encrypted === "string" ? approxTokens(encrypted) : 0);
    }
    case "function_call":
      return ITEM_OVERHEAD + approxTokens(item.name) + approxTokens(item.arguments) +
        approxTokens(item.callId);
    case "function_call_output": {
      let parts = 0;
      for (const part of item.content ?? []) parts += part.type === "text" ? approxTokens(part.text) : 256;
      return ITEM_OVERHEAD + approxTokens(item.output) + parts + approxTokens(item.callId);
    }
    default: {
      const never: never = item;
      return approxTokens(JSON.stringify(never));
    }
  }
}

export function estimateItemsTokens(items: readonly ConversationItem[]): number {
  let total = 0;
  for (const item of items) total += estimateItemTokens(item);
  return total;
}

/** A whole request's size before the model reports it: instructions, tool declarations, input. */
export function estimateRequestTokens(request: {
  instructions: string;
  input: readonly ConversationItem[];
  tools?: readonly ToolDeclaration[];
}): number {
  let tools = 0;
  for (const tool of request.tools ?? []) {
    tools += approxTokens(tool.name) + approxTokens(tool.description) +
      approxTokens(JSON.stringify(tool.parameters));
  }
  return approxTokens(request.instructions) + tools + estimateItemsTokens(request.input);
}

/**
 * How many tokens the conversation takes in the model's context, as Codex counts it: the input plus
 * output tokens the model reported for the last sampling (what it read, and what it wrote that is now
 * history), plus an estimate of the items recorded since. Before the first report — a new or resumed
 * session, or just after a compaction — the whole request is estimated instead.
 */
export class ContextMeter {
  private reported: number | null = null;
  private since = 0;
  /** The tools the last request declared, so estimates made between turns count them too. */
  tools: readonly ToolDeclaration[] = [];

  /** An item joined the history (after the last sampling's report, or before any). */
  add(item: ConversationItem): void {
    this.since += estimateItemTokens(item);
  }

  /** The model reported a sampling's usage; items recorded before this call are covered by it. */
  sampled(usage: Usage): void {
    const total = usage.inputTokens + usage.outputTokens;
    if (total <= 0) return; // a provider that reports nothing: keep estimating
    this.reported = total;
    this.since = 0;
  }

  /** The history was replaced: nothing the model reported describes it any more. */
  reset(): void {
    this.reported = null;
    this.since = 0;
  }

  /** The context's size now; `estimate` (of the whole request) is called only before any report. */
  tokens(estimate: () => number): number {
    return this.reported === null ? estimate() : this.reported + this.since;
  }

  /** Whether the size comes from a model's report (else from an estimate). */
  get measured(): boolean {
    return this.reported !== null;
  }
}
