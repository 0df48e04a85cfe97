import type { ToolHookInput } from "./lifecycle_hooks.ts";

/** The three kinds of a permission rule (Claude Code's `permissions`): deny over ask over allow. */
export type PermissionRuleKind = "deny" | "ask" | "allow";

/** The rule that decided a call, and the file (or `-c`) it came from. */
export interface PermissionRuleHit {
  kind: PermissionRuleKind;
  rule: string;
  origin: string;
}

/**
 * The loop's port for permission rules: which rule (if any) decides this call, judged on its
 * hook-facing name and input. Deny is looked for first, then ask, then allow.
 */
export interface PermissionRules {
  /**
   * `asCalled` is the call's own arguments (the path as the model wrote it, before symbolic links
   * are resolved): a deny or ask rule matching either form holds; an allow rule must match the
   * hook-facing input, which names what the tool really touches.
   */
  judge(
    input: Pick<ToolHookInput, "toolName" | "aliases" | "toolInput">,
    cwd: string,
    asCalled?: unknown,
  ): Promise<PermissionRuleHit | undefined>;
}

/** No rules: every call goes to the approval policy as before. */
export const noPermissionRules: PermissionRules = { judge: () => Promise.resolve(undefined) };

/** What the model and the user read when a rule refuses a call. */
export function ruleRefusal(hit: PermissionRuleHit, why?: string): string {
  return `permission rule ${hit.kind} "${hit.rule}" (${hit.origin}) ${why ?? "refuses this call"}`;
}
