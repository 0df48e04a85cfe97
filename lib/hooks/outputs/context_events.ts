import { memo, z } from "../../shared/mod.ts";
import {
  baseEffect,
  commonOutputShape,
  failed,
  isBlank,
  ok,
  type ParseOutcome,
  specificOutput,
  stopOf,
  validateOutput,
} from "./hook_effect.ts";

const contextOnly = (event: "SessionStart" | "SubagentStart") =>
  z.strictObject({
    ...commonOutputShape(),
    hookSpecificOutput: z.optional(specificOutput(event, { additionalContext: z.optional(z.string()) })),
  });

export const sessionStartOutputSchema = memo(() => contextOnly("SessionStart"));
export const subagentStartOutputSchema = memo(() => contextOnly("SubagentStart"));

export const userPromptSubmitOutputSchema = memo(() =>
  z.strictObject({
    ...commonOutputShape(),
    decision: z.optional(z.literal("block")),
    reason: z.optional(z.string()),
    hookSpecificOutput: z.optional(
      specificOutput("UserPromptSubmit", { additionalContext: z.optional(z.string()) }),
    ),
  })
);

/** SessionStart: additionalContext; continue:false stops (HK-12). */
export function parseSessionStartOutput(value: unknown): ParseOutcome {
  const checked = validateOutput("SessionStart", sessionStartOutputSchema(), value);
  if (!checked.ok) return failed(checked.error);
  const out = checked.data;
  return ok({
    ...baseEffect(out, out.hookSpecificOutput?.additionalContext),
    ...stopOf("SessionStart", out),
  });
}

/** SubagentStart is context only: `continue` is ignored. */
export function parseSubagentStartOutput(value: unknown): ParseOutcome {
  const checked = validateOutput("SubagentStart", subagentStartOutputSchema(), value);
  if (!checked.ok) return failed(checked.error);
  return ok(baseEffect(checked.data, checked.data.hookSpecificOutput?.additionalContext));
}

/** UserPromptSubmit: `decision:block` + reason drops the prompt; context is added; continue:false stops. */
export function parseUserPromptSubmitOutput(value: unknown): ParseOutcome {
  const checked = validateOutput("UserPromptSubmit", userPromptSubmitOutputSchema(), value);
  if (!checked.ok) return failed(checked.error);
  const out = checked.data;
  const base = {
    ...baseEffect(out, out.hookSpecificOutput?.additionalContext),
    ...stopOf("UserPromptSubmit", out),
  };
  if (out.decision === "block") {
    if (isBlank(out.reason)) return failed("UserPromptSubmit hook returned decision:block without a reason");
    return ok({ ...base, block: { reason: out.reason!.trim() } });
  }
  if (out.reason !== undefined && out.continue !== false) {
    return failed("UserPromptSubmit hook returned a reason without a decision");
  }
  return ok(base);
}
