import { memo, z } from "../../shared/mod.ts";
import {
  baseEffect,
  commonOutputShape,
  failed,
  isBlank,
  ok,
  type ParseOutcome,
  stopOf,
  validateOutput,
} from "./hook_effect.ts";

export const stopOutputSchema = memo(() =>
  z.strictObject({
    ...commonOutputShape(),
    decision: z.optional(z.literal("block")),
    reason: z.optional(z.string()),
    // Claude Code: context from a Stop hook keeps the turn going, as a reason does.
    hookSpecificOutput: z.optional(z.strictObject({
      hookEventName: z.enum(["Stop", "SubagentStop"]),
      additionalContext: z.optional(z.string()),
    })),
  })
);

export const STOP_BLOCK_WITHOUT_REASON =
  "Stop hook requested continuation without a prompt; ignoring the block.";

/**
 * Stop / SubagentStop: `decision:block` with a non-blank reason continues the turn with it;
 * continue:false stops (and wins over blocks in aggregation); a block without a reason fails the run.
 */
export function parseStopOutput(event: "Stop" | "SubagentStop", value: unknown): ParseOutcome {
  const checked = validateOutput(event, stopOutputSchema(), value);
  if (!checked.ok) return failed(checked.error);
  const out = checked.data;
  const base = baseEffect(out);
  if (out.continue === false) return ok({ ...base, ...stopOf(event, out) });
  if (out.decision === "block") {
    if (isBlank(out.reason)) return failed(STOP_BLOCK_WITHOUT_REASON);
    return ok({ ...base, block: { reason: out.reason!.trim() } });
  }
  if (out.reason !== undefined) return failed(`${event} hook returned a reason without a decision`);
  const context = out.hookSpecificOutput?.additionalContext;
  if (!isBlank(context)) return ok({ ...base, block: { reason: context!.trim() } });
  return ok(base);
}
