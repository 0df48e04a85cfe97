import { memo, z } from "../../shared/mod.ts";
import {
  baseEffect,
  commonOutputShape,
  failed,
  ok,
  type ParseOutcome,
  validateOutput,
} from "./hook_effect.ts";

export const compactOutputSchema = memo(() => z.strictObject({ ...commonOutputShape() }));

/** PreCompact / PostCompact observe only (HK-14): the universal fields, nothing that changes the flow. */
export function parseCompactOutput(event: "PreCompact" | "PostCompact", value: unknown): ParseOutcome {
  const checked = validateOutput(event, compactOutputSchema(), value);
  if (!checked.ok) return failed(checked.error);
  return ok(baseEffect(checked.data));
}
