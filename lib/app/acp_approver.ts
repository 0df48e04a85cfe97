import type { AcpPermissionAsk } from "../acp/mod.ts";
import {
  agentNote,
  type ApprovalAnswer,
  approvalChoices,
  type ApprovalRequest,
  type Approver,
  commandText,
  promptingApprover,
} from "../loop/mod.ts";

const KINDS: Record<string, AcpPermissionAsk["options"][number]["kind"] | undefined> = {
  y: "allow_once",
  a: "allow_always",
  p: "allow_always",
  d: "allow_always",
  n: "reject_once",
};

/**
 * Every approval of an ACP session asked with `session/request_permission` (#25 item 1): the
 * terminal prompt's choices as ACP options — yes once (`allow_once`), each session scope
 * (`allow_always`, its name saying exactly what it covers), no (`reject_once`). "No, and stop the
 * turn" is the client's `session/cancel`; a cancelled request (or a client that went away) stops
 * the turn. Session approvals are remembered and one question is asked at a time, as on a terminal.
 */
export function acpApprover(ask: (ask: AcpPermissionAsk) => Promise<string | null>): Approver {
  return promptingApprover(async (request): Promise<ApprovalAnswer> => {
    const choices = approvalChoices(request).filter((c) => KINDS[c.key]);
    const chosen = await ask({
      callId: request.callId,
      toolName: request.toolName,
      title: permissionTitle(request),
      args: request.args,
      options: choices.map((c) => ({ id: c.key, name: optionName(c.label), kind: KINDS[c.key]! })),
    });
    const choice = choices.find((c) => c.key === chosen);
    if (!choice) return { decision: "abort", reason: "the user cancelled the request and stopped the turn" };
    return choice.answer;
  });
}

/** "yes, and don't ask again this session for this exact command (…)" → "Always allow this session: for …". */
function optionName(label: string): string {
  if (label.startsWith("yes, and don't ask again this session ")) {
    return `Always allow this session ${label.slice("yes, and don't ask again this session ".length)}`;
  }
  if (label.startsWith("no")) return "Reject";
  return label.replace(/^yes, /, "Allow, ").replace(/^Allow, once$/, "Allow once");
}

function permissionTitle(request: ApprovalRequest): string {
  return `${subjectTitle(request)}${agentNote(request)}`;
}

function subjectTitle(request: ApprovalRequest): string {
  const { subject } = request;
  switch (subject.kind) {
    case "command": {
      const where = subject.sandbox === "inside"
        ? "in the sandbox"
        : subject.sandbox === "outside"
        ? "OUTSIDE the sandbox"
        : "with no sandbox";
      return `Run ${commandText(subject.command)} (in ${subject.cwd}, ${where}): ${request.reason}`;
    }
    case "path":
      return `${subject.access === "write" ? "Write" : "Read"} ${subject.path}: ${request.reason}`;
    case "action":
      return `${subject.name}: ${request.reason}`;
  }
}
