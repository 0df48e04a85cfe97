/** Codex's approval policies, from the one that asks most to the one that never asks. */
export const APPROVAL_POLICIES = ["untrusted", "on-request", "on-failure", "never"] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

/** Codex's sandbox modes, tightest first. */
export const SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
