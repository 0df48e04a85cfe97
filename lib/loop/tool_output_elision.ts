import type { ConversationItem } from "../shared/mod.ts";
import { estimateItemTokens } from "./context_meter.ts";
import type { CompactionRecord } from "./compacted_history.ts";
import { isRealUserMessage } from "./compacted_history.ts";

const ELIDED_PREFIX = "[output elided";

/** Outputs this small are kept: the note replacing them would save next to nothing. */
const MIN_ELIDED_TOKENS = 64;

/**
 * The cheap first step of an automatic compaction: the outputs of tool calls made before the last
 * `keepTurns` user turns are replaced by a one-line note (what ran stays: the call and its
 * arguments). Old outputs are what a long agent session is mostly made of, and the model's own
 * answers already say what it drew from them. Returns the record to apply and what it saves.
 */
export function elideOldToolOutputs(
  history: readonly ConversationItem[],
  options: { keepTurns: number; trigger: "manual" | "auto" },
): { record: CompactionRecord & { strategy: "elide_tool_outputs" }; savedTokens: number } {
  const record = {
    strategy: "elide_tool_outputs" as const,
    trigger: options.trigger,
    elided: [] as { call_id: string; output: string }[],
  };
  if (options.keepTurns <= 0) return { record, savedTokens: 0 };
  let boundary = -1;
  let turns = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    if (isRealUserMessage(history[i]) && ++turns === options.keepTurns) {
      boundary = i;
      break;
    }
  }
  if (boundary <= 0) return { record, savedTokens: 0 };
  const names = new Map<string, string>();
  let savedTokens = 0;
  for (const item of history.slice(0, boundary)) {
    if (item.type === "function_call") names.set(item.callId, item.name);
    if (item.type !== "function_call_output" || item.output.startsWith(ELIDED_PREFIX)) continue;
    const before = estimateItemTokens(item);
    if (before < MIN_ELIDED_TOKENS) continue;
    const output = `${ELIDED_PREFIX}: ${names.get(item.callId) ?? "a tool"} returned ${item.output.length} ` +
      `characters here; they were removed to save context. Call the tool again if you need them.]`;
    record.elided.push({ call_id: item.callId, output });
    savedTokens += before - estimateItemTokens({ ...item, output, content: undefined });
  }
  return { record, savedTokens };
}
