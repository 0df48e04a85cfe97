import type { ApprovalSubject } from "../shared/mod.ts";
import type { ApprovalAnswer, ApprovalRequest } from "./ports.ts";
import { sessionScopesFor } from "./session_scopes.ts";

export interface ApprovalRequestInput {
  callId: string;
  toolName: string;
  args: unknown;
  reason: string;
  /** What approving allows; default: the call itself, as an action named after the tool. */
  subject?: ApprovalSubject;
}

/** A complete request: the subject, and the session scopes a prompt may offer for it. */
export function approvalRequest(input: ApprovalRequestInput): ApprovalRequest {
  const subject = input.subject ?? { kind: "action", name: input.toolName, arguments: input.args };
  return {
    callId: input.callId,
    toolName: input.toolName,
    args: input.args,
    subject,
    reason: input.reason,
    sessionScopes: sessionScopesFor(subject),
  };
}

/**
 * Whether approving `subject` lifts a limit for the call (its `escalated` flag): a command approved
 * to run inside the sandbox still runs inside it; one approved outside it, or with no sandbox
 * available, does not; an approved path or action is allowed past the roots.
 */
export function liftsLimits(subject: ApprovalSubject): boolean {
  switch (subject.kind) {
    case "command":
      return subject.sandbox !== "inside";
    case "path":
    case "action":
      return true;
    default: {
      const never: never = subject;
      return never;
    }
  }
}

/** Whether an answer lets the call run (once or for the session). */
export function approves(answer: ApprovalAnswer): boolean {
  return answer.decision === "approved" || answer.decision === "approved_for_session";
}
