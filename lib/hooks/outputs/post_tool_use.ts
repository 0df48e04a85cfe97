import { memo, z } from "../../shared/mod.ts";
import {
  baseEffect,
  commonOutputShape,
  failed,
  isBlank,
  ok,
  type ParseOutcome,
  specificOutput,
  validateOutput,
} from "./hook_effect.ts";

export const postToolUseOutputSchema = memo(() =>
  z.strictObject({
    ...commonOutputShape(),
    decision: z.optional(z.literal("block")),
    reason: z.optional(z.string()),
    hookSpecificOutput: z.optional(specificOutput("PostToolUse", {
      additionalContext: z.optional(z.string()),
      // Claude Code: replaces an MCP tool's output (the engine applies it to MCP tools only).
      updatedMCPToolOutput: z.optional(z.unknown()),
    })),
  })
);

/**
 * PostToolUse stdout: `decision:block` + reason replaces the model-visible output with the reason;
 * `continue:false` does the same with reason or stopReason. It never undoes the call.
 */
export function parsePostToolUseOutput(value: unknown): ParseOutcome {
  const checked = validateOutput("PostToolUse", postToolUseOutputSchema(), value);
  if (!checked.ok) return failed(checked.error);
  const out = checked.data;
  const replaced = out.hookSpecificOutput?.updatedMCPToolOutput;
  const base = {
    ...baseEffect(out, out.hookSpecificOutput?.additionalContext),
    ...(replaced !== undefined ? { replacedOutput: { value: replaced } } : {}),
  };
  if (out.continue === false) {
    const reason = [out.reason, out.stopReason].find((r) => !isBlank(r))?.trim() ??
      "PostToolUse hook stopped processing";
    return ok({ ...base, stop: { reason }, block: { reason } });
  }
  if (out.decision === "block") {
    if (isBlank(out.reason)) return failed("PostToolUse hook returned decision:block without a reason");
    return ok({ ...base, block: { reason: out.reason!.trim() } });
  }
  if (out.reason !== undefined) return failed("PostToolUse hook returned a reason without a decision");
  return ok(base);
}
