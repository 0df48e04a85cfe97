import type { TrellisConfig } from "../../config/mod.ts";

/**
 * How strict each sandbox mode and approval policy is: the one place `mcp-server` learns whether a
 * call's setting tightens the operator's (README "Trellis as an MCP server" says the same).
 */

export type SandboxMode = NonNullable<TrellisConfig["sandbox_mode"]>;
export type ApprovalPolicy = NonNullable<TrellisConfig["approval_policy"]>;

/** Strictest first: each mode lets a command touch everything the one before it does, and more. */
export const SANDBOX_ORDER: readonly SandboxMode[] = ["read-only", "workspace-write", "danger-full-access"];

export function sandboxWithin(call: SandboxMode, operator: SandboxMode): boolean {
  return SANDBOX_ORDER.indexOf(call) <= SANDBOX_ORDER.indexOf(operator);
}

/**
 * Approval policies differ on two counts, and a served call's approvals are answered by the very
 * client that makes the call, so both count:
 * - `unasked`, what runs without asking anyone: `untrusted` asks before every write and every
 *   command not known to be read-only; the other three ask only where a write leaves the roots, a
 *   protected path is touched or no sandbox is available;
 * - `reach`, what can run at all once approved: `never` approves nothing (it denies instead of
 *   asking); `on-failure` also offers a command that failed in the sandbox again outside it.
 * A call's policy is within the operator's when it is no looser on either count. So: from
 * `on-failure` any policy; from `on-request` untrusted, on-request or never; from `untrusted` and from
 * `never` only themselves (`never` → `untrusted` would let the client approve what `never` denies;
 * `untrusted` → `never` would run unasked what `untrusted` asks about).
 */
const APPROVAL_COUNTS: Record<ApprovalPolicy, { unasked: number; reach: number }> = {
  untrusted: { unasked: 0, reach: 1 },
  "on-request": { unasked: 1, reach: 1 },
  "on-failure": { unasked: 1, reach: 2 },
  never: { unasked: 1, reach: 0 },
};

export function approvalWithin(call: ApprovalPolicy, operator: ApprovalPolicy): boolean {
  const c = APPROVAL_COUNTS[call];
  const o = APPROVAL_COUNTS[operator];
  return c.unasked <= o.unasked && c.reach <= o.reach;
}

/** The policies a call may choose under the operator's `operator`, in the config's order. */
export function approvalsWithin(operator: ApprovalPolicy): ApprovalPolicy[] {
  return (Object.keys(APPROVAL_COUNTS) as ApprovalPolicy[]).filter((p) => approvalWithin(p, operator));
}
