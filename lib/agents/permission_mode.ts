import { APPROVAL_POLICIES } from "../config/mod.ts";

/** What a child runs under, from its `permissionMode` and the parent's approval policy (read per call). */
export interface ChildPermissions {
  approvalPolicy: string;
  /** `plan`: the file-writing tools are not offered (a read-only exploration, as Claude Code's plan mode). */
  readOnly: boolean;
  /** `dontAsk`: a call that would prompt is denied instead (Claude Code: "auto-deny prompts"). */
  denyPrompts: boolean;
  /** Why a looser mode was not applied, for `agents show`. */
  note?: string;
}

/** The stricter of two approval policies, strictest first: untrusted, on-request, on-failure, never. */
function stricter(a: string, b: string): string {
  const rank = (p: string) => {
    const i = (APPROVAL_POLICIES as readonly string[]).indexOf(p);
    return i < 0 ? 0 : i;
  };
  return rank(a) <= rank(b) ? a : b;
}

/**
 * Claude Code's `permissionMode` on Trellis's approval policy and sandbox, never looser than the
 * parent (#22 item 3): `default`, `acceptEdits` and `auto` keep the parent's; `plan` asks for every
 * call that is not known-safe (`untrusted`) and drops the file-writing tools; `dontAsk` keeps the
 * parent's policy but denies what would prompt; `bypassPermissions` cannot widen anything, so the
 * parent's policy applies (and `agents show` says so).
 */
export function childPermissions(mode: string | undefined, parentPolicy: string): ChildPermissions {
  const inherit = { approvalPolicy: parentPolicy, readOnly: false, denyPrompts: false };
  switch (mode) {
    case "plan":
      return { approvalPolicy: stricter("untrusted", parentPolicy), readOnly: true, denyPrompts: false };
    case "dontAsk":
      return { ...inherit, denyPrompts: true };
    case "bypassPermissions":
      return { ...inherit, note: "never looser than the parent: the parent's approval policy and sandbox" };
    default:
      return inherit;
  }
}

/** The tools `plan` leaves out (by hook name): what writes files. */
export const WRITING_HOOK_NAMES = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit", "apply_patch"]);
