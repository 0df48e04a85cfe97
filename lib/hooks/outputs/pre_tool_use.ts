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

export const preToolUseOutputSchema = memo(() =>
  z.strictObject({
    ...commonOutputShape(),
    decision: z.optional(z.enum(["approve", "block"])),
    reason: z.optional(z.string()),
    hookSpecificOutput: z.optional(specificOutput("PreToolUse", {
      permissionDecision: z.optional(z.enum(["allow", "deny", "ask", "defer"])),
      permissionDecisionReason: z.optional(z.string()),
      updatedInput: z.optional(z.unknown()),
      additionalContext: z.optional(z.string()),
    })),
  })
);

/**
 * PreToolUse stdout (§2.7): modern `permissionDecision` or legacy `decision:block`. `ask` sends the
 * call to the approval prompt and `defer` leaves it pending (#24 item 2, as Claude Code defines them);
 * anything else Codex rejects (allow without a rewrite, a rewrite without allow or ask, a deny or
 * block without a reason, a reason without a decision, continue:false) fails the run and nothing of
 * it is applied.
 */
export function parsePreToolUseOutput(value: unknown): ParseOutcome {
  const checked = validateOutput("PreToolUse", preToolUseOutputSchema(), value);
  if (!checked.ok) return failed(checked.error);
  const out = checked.data;
  if (out.continue === false) return failed("PreToolUse hook returned unsupported continue:false");
  if (out.stopReason !== undefined) return failed("PreToolUse hook returned unsupported stopReason");
  if (out.decision === "approve") return failed("PreToolUse hook returned unsupported decision:approve");
  const specific = out.hookSpecificOutput;
  const decision = specific?.permissionDecision;
  const base = baseEffect(out, specific?.additionalContext);
  const reason = isBlank(specific?.permissionDecisionReason)
    ? {}
    : { reason: specific!.permissionDecisionReason!.trim() };
  if (decision === "ask") {
    const rewrite = specific?.updatedInput !== undefined
      ? { updatedInput: { value: specific.updatedInput } }
      : {};
    return ok({ ...base, ask: reason, ...rewrite });
  }
  if (decision === "defer") {
    if (specific?.updatedInput !== undefined) {
      return failed("PreToolUse hook returned updatedInput with permissionDecision:defer");
    }
    return ok({ ...base, defer: reason });
  }
  if (specific?.updatedInput !== undefined && decision !== "allow") {
    return failed("PreToolUse hook returned updatedInput without permissionDecision:allow or ask");
  }
  if (decision === "allow") {
    if (specific?.updatedInput === undefined) {
      return failed("PreToolUse hook returned unsupported permissionDecision:allow without updatedInput");
    }
    return ok({ ...base, updatedInput: { value: specific.updatedInput } });
  }
  if (decision === "deny" || out.decision === "block") {
    const reason = decision === "deny" ? specific?.permissionDecisionReason : out.reason;
    if (isBlank(reason)) {
      return failed(
        `PreToolUse hook returned ${
          decision === "deny" ? "permissionDecision:deny" : "decision:block"
        } without a reason`,
      );
    }
    return ok({ ...base, block: { reason: reason!.trim() } });
  }
  if (out.reason !== undefined || specific?.permissionDecisionReason !== undefined) {
    return failed("PreToolUse hook returned a reason without a decision");
  }
  return ok(base);
}
