import { memo, z } from "../../shared/mod.ts";
import {
  baseEffect,
  commonOutputShape,
  failed,
  ok,
  type ParseOutcome,
  specificOutput,
  validateOutput,
} from "./hook_effect.ts";

export const permissionRequestOutputSchema = memo(() =>
  z.strictObject({
    ...commonOutputShape(),
    hookSpecificOutput: z.optional(specificOutput("PermissionRequest", {
      decision: z.optional(z.strictObject({
        behavior: z.enum(["allow", "deny"]),
        message: z.optional(z.string()),
        updatedInput: z.optional(z.unknown()),
        updatedPermissions: z.optional(z.unknown()),
        interrupt: z.optional(z.boolean()),
      })),
    })),
  })
);

export const DEFAULT_DENY_MESSAGE = "PermissionRequest hook denied approval";

/** PermissionRequest stdout: `decision.behavior` allow|deny; rewrites and interrupts are unsupported. */
export function parsePermissionRequestOutput(value: unknown): ParseOutcome {
  const checked = validateOutput("PermissionRequest", permissionRequestOutputSchema(), value);
  if (!checked.ok) return failed(checked.error);
  const out = checked.data;
  if (out.stopReason !== undefined) return failed("PermissionRequest hook returned unsupported stopReason");
  if (out.continue === false) return failed("PermissionRequest hook returned unsupported continue:false");
  const decision = out.hookSpecificOutput?.decision;
  if (decision?.updatedInput !== undefined) {
    return failed("PermissionRequest hook returned unsupported updatedInput");
  }
  if (decision?.updatedPermissions !== undefined) {
    return failed("PermissionRequest hook returned unsupported updatedPermissions");
  }
  if (decision?.interrupt === true) {
    return failed("PermissionRequest hook returned unsupported interrupt:true");
  }
  const base = baseEffect(out);
  if (decision?.behavior === "deny") {
    const message = decision.message?.trim() ? decision.message.trim() : DEFAULT_DENY_MESSAGE;
    return ok({ ...base, block: { reason: message } });
  }
  if (decision?.behavior === "allow") return ok({ ...base, allow: true });
  return ok(base);
}
