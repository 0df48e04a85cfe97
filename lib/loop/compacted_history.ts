import type { ConversationItem } from "../shared/mod.ts";
import { approxTokens } from "./context_meter.ts";
import { isSummaryMessage, summaryMessageText } from "./compaction_prompt.ts";
import { TrellisError } from "../shared/mod.ts";

/**
 * What a compaction did to the history, as the transcript records it (one `compacted` line) and as
 * both the running session and a resume apply it — the same function, so a resumed session sends
 * the model exactly the context the running one would have.
 */
export type CompactionRecord =
  | {
    strategy: "summary";
    trigger: "manual" | "auto";
    /** The summary as the model wrote it. */
    message: string;
    /** The whole new history (Codex's `replacement_history`). */
    replacement_history: ConversationItem[];
  }
  | {
    strategy: "elide_tool_outputs";
    trigger: "manual" | "auto";
    /** Each elided call's new output text; the rest of the history is unchanged. */
    elided: { call_id: string; output: string }[];
  };

export function applyCompaction(
  items: readonly ConversationItem[],
  record: CompactionRecord,
): ConversationItem[] {
  switch (record.strategy) {
    case "summary":
      return [...record.replacement_history];
    case "elide_tool_outputs": {
      const outputs = new Map(record.elided.map((e) => [e.call_id, e.output]));
      return items.map((item) => {
        if (item.type !== "function_call_output" || !outputs.has(item.callId)) return item;
        const { content: _dropped, ...rest } = item;
        return { ...rest, output: outputs.get(item.callId)! };
      });
    }
    default: {
      const never: never = record;
      throw new TrellisError("internal", `unknown compaction record ${JSON.stringify(never)}`, {
        record: never,
      });
    }
  }
}

/**
 * A message the user typed: not a summary, not a skill body or a hook's prompt (those are user-role
 * context the loop adds), as Codex keeps only real user messages across a compaction.
 */
export function isRealUserMessage(item: ConversationItem): item is ConversationItem & { type: "message" } {
  return item.type === "message" && item.role === "user" && !isSummaryMessage(item.content) &&
    !item.content.startsWith("<skill>") && !item.content.startsWith("<hook_prompt");
}

/** Codex's COMPACT_USER_MESSAGE_MAX_TOKENS: how much of the user's own words survives a compaction. */
export const USER_MESSAGES_MAX_TOKENS = 20_000;

/**
 * The new history of a summary compaction (Codex's `build_compacted_history`): the most recent user
 * messages, newest first until `budget` tokens (the one that crosses it truncated in the middle),
 * restored to their order, then the summary as a user message. `beforeLastUser` (context blocks) and
 * `afterLastUser` (the running turn's skill bodies) go around the last user message, so a compaction
 * in the middle of a turn keeps what that turn was given; the summary stays last.
 */
export function buildReplacementHistory(options: {
  history: readonly ConversationItem[];
  summary: string;
  budget: number;
  beforeLastUser?: ConversationItem[];
  afterLastUser?: ConversationItem[];
}): ConversationItem[] {
  const selected: string[] = [];
  let remaining = options.budget;
  const users = options.history.filter(isRealUserMessage);
  for (let i = users.length - 1; i >= 0 && remaining > 0; i--) {
    const text = users[i].content;
    const tokens = approxTokens(text);
    if (tokens <= remaining) {
      selected.push(text);
      remaining -= tokens;
    } else {
      selected.push(truncateMiddle(text, remaining));
      break;
    }
  }
  selected.reverse();
  const messages: ConversationItem[] = selected.map((content) => ({
    type: "message",
    role: "user",
    content,
  }));
  const last = messages.length > 0 ? messages.pop()! : null;
  return [
    ...messages,
    ...(options.beforeLastUser ?? []),
    ...(last ? [last] : []),
    ...(options.afterLastUser ?? []),
    { type: "message", role: "user", content: summaryMessageText(options.summary) },
  ];
}

/** Keeps the head and tail of `text` within `tokens`, saying how much was cut (Codex's truncate_text). */
export function truncateMiddle(text: string, tokens: number): string {
  const keep = Math.max(0, tokens * 4);
  if (text.length <= keep) return text;
  const cut = approxTokens(text) - tokens;
  const head = text.slice(0, Math.floor(keep / 2));
  const tail = text.slice(text.length - Math.ceil(keep / 2));
  return `${head}\n…${cut} tokens truncated…\n${tail}`;
}
