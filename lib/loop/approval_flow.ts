import * as nodePath from "node:path";
import type {
  ApprovalNeed,
  ApprovalSubject,
  PermissionRuleHit,
  ToolDefinition,
  ToolHookInput,
  ToolResult,
} from "../shared/mod.ts";
import { approvalRequest, liftsLimits } from "./approval_request.ts";
import type { ApprovalRequest } from "./ports.ts";
import type { CallEnv } from "./call_env.ts";

/**
 * What the approval step decided for one call. `escalated` says whether the call may go past the
 * sandbox or the roots; `stopTurn` is Codex's abort: the person said no and stopped the turn.
 */
export type ApprovalVerdict =
  | { kind: "ok"; escalated: boolean }
  | { kind: "denied"; reason: string; stopTurn: boolean };

/**
 * Approval for one call: the tool's need (an `ask` permission rule adds one, an `allow` rule answers
 * one the policy asks for its own sake) → approval_policy "never" → PermissionRequest hooks → the
 * approver (session approvals first, then a person). Approving runs exactly what the request
 * showed: a command approved inside the sandbox stays inside it.
 */
export async function decideApproval(
  tool: ToolDefinition,
  args: unknown,
  callId: string,
  env: CallEnv,
  hookInput: () => ToolHookInput,
  rule?: PermissionRuleHit,
  hookAsk?: { reason?: string },
): Promise<ApprovalVerdict> {
  const need = tool.approval(args, { cwd: env.cwd });
  if (need.kind === "forbidden") return { kind: "denied", reason: need.reason, stopTurn: false };
  if (need.kind === "none") {
    if (rule?.kind !== "ask" && !hookAsk) return { kind: "ok", escalated: false };
    // An ask rule (or a PreToolUse hook's `permissionDecision: "ask"`, #24 item 2) asks where the
    // policy would not; approving runs the call as it would have run unasked (inside the sandbox
    // and the roots), never past them.
    const reason = hookAsk
      ? `a PreToolUse hook asks before this call${hookAsk.reason ? `: ${hookAsk.reason}` : ""}`
      : `permission rule ask "${rule!.rule}" (${rule!.origin}) asks before this call`;
    const verdict = await ask(approvalRequest({ callId, toolName: tool.name, args, reason }), env, hookInput);
    return verdict.kind === "ok" ? { kind: "ok", escalated: false } : verdict;
  }
  // An allow rule answers only what the policy asks for its own sake: a call that would leave the
  // sandbox or the roots, or write a protected path, is asked all the same.
  // A hook's ask overrides an allow rule: the person decides.
  if (rule?.kind === "allow" && !hookAsk && allowable(need)) {
    env.events({ type: "approval.decided", call_id: callId, decision: "approved", by: "rule" });
    return { kind: "ok", escalated: need.subject?.kind === "path" };
  }
  const request = approvalRequest({
    callId,
    toolName: tool.name,
    args,
    reason: need.reason,
    ...(need.subject ? { subject: need.subject } : {}),
  });
  return await ask(request, env, hookInput);
}

/** Whether approving lifts nothing: the policy asks for its own sake (an untrusted write inside the roots). */
function allowable(need: ApprovalNeed & { kind: "required" }): boolean {
  if (need.policyOnly !== true) return false;
  return need.subject?.kind !== "command" || need.subject.sandbox === "inside";
}

/**
 * `on-failure` (Codex's retry): a shell command that failed inside the sandbox may run again
 * outside it — only if someone explicitly approves running it outside; the prompt says so.
 */
export async function approveUnsandboxedRetry(
  tool: ToolDefinition,
  args: unknown,
  callId: string,
  env: CallEnv,
  context: { hookInput: () => ToolHookInput; failed: ToolResult },
): Promise<ApprovalVerdict> {
  const input = context.hookInput().toolInput as { command?: unknown; workdir?: unknown };
  // The tool's own subject names the files the command runs: "always" is then for their content.
  const subject: ApprovalSubject = tool.unsandboxedSubject?.(args) ?? {
    kind: "command",
    command: String(input.command ?? ""),
    cwd: nodePath.resolve(env.cwd, typeof input.workdir === "string" ? input.workdir : "."),
    sandbox: "outside",
  };
  const firstLine = context.failed.output.split("\n").find((line) => line.trim() !== "") ?? "failed";
  const reason = `the command failed inside the sandbox (${firstLine.slice(0, 200)}); ` +
    `approving runs it again OUTSIDE the sandbox`;
  return await ask(
    approvalRequest({ callId, toolName: tool.name, args, reason, subject }),
    env,
    context.hookInput,
  );
}

async function ask(
  request: ApprovalRequest,
  env: CallEnv,
  hookInput: () => ToolHookInput,
): Promise<ApprovalVerdict> {
  const { callId } = request;
  const decided = (decision: "approved" | "denied", by: string, reason?: string) =>
    env.events({ type: "approval.decided", call_id: callId, decision, by, ...(reason ? { reason } : {}) });
  const granted = (by: string): ApprovalVerdict => {
    decided("approved", by);
    return { kind: "ok", escalated: liftsLimits(request.subject) };
  };
  const refused = (by: string, reason: string, stopTurn = false): ApprovalVerdict => {
    decided("denied", by, reason);
    return { kind: "denied", reason, stopTurn };
  };
  if (env.approvalPolicy === "never") {
    return refused("policy", `${request.reason} (approval_policy = "never" does not ask)`);
  }
  // A hook allowing a command that stays in the sandbox must not read as allowing an escalation.
  const hook = await env.hooks.permissionRequest(env.hookContext, {
    ...hookInput(),
    reason: request.reason,
    sandboxPermissions: liftsLimits(request.subject) ? "require_escalated" : "use_default",
  });
  if (hook.decision === "deny") {
    const why = hook.message
      ? `PermissionRequest hook: ${hook.message}`
      : "PermissionRequest hook denied approval";
    return refused("hook", why);
  }
  if (hook.decision === "allow") return granted("hook");
  env.events({
    type: "approval.requested",
    call_id: callId,
    tool: request.toolName,
    reason: request.reason,
    subject: request.subject,
  });
  const answer = await env.approver.request(request);
  const by = answer.by ?? "user";
  switch (answer.decision) {
    case "approved":
    case "approved_for_session":
      return granted(by);
    case "denied":
      return refused(by, answer.reason ?? `the user declined (${request.reason})`);
    case "abort":
      return refused(by, answer.reason ?? "the user declined and stopped the turn", true);
    default: {
      const never: never = answer.decision;
      return never;
    }
  }
}
