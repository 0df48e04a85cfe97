import {
  type ApprovalAnswer,
  type ApprovalChoice,
  approvalChoices,
  type ApprovalRequest,
  type Approver,
  rememberingApprover,
  renderApprovalPrompt,
} from "../../loop/mod.ts";
import type { ServedToolCall } from "../../mcp/mod.ts";
import { describeError } from "../../shared/mod.ts";

/**
 * Approvals of a thread served over MCP, asked of the client whose call runs the turn as a form
 * elicitation (`elicitation/create`): the message is the whole request as the terminal prompt shows
 * it (command, directory, where it runs, reason); accept runs it once — or, with `remember`, for the
 * session scope the form names — decline or cancel denies it. A client that did not declare
 * elicitation is never asked: the request is denied by policy with a reason the model sees.
 */
export function clientApprover(current: () => ServedToolCall | null): Approver {
  const remembering = rememberingApprover((request) => askClient(current(), request));
  // One question at a time, even when parallel calls all need approval.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    request(request) {
      const next = queue.then(() => remembering.request(request));
      queue = next.catch(() => {});
      return next;
    },
  };
}

/** A wide line: the client wraps the message itself; only the command keeps its blanks as `␠×N`. */
const MESSAGE_COLUMNS = 4096;

async function askClient(call: ServedToolCall | null, request: ApprovalRequest): Promise<ApprovalAnswer> {
  if (!call || !call.elicitationModes().form) {
    return {
      decision: "denied",
      by: "policy",
      reason: `approval required (${request.reason}) but the MCP client cannot be asked: it did not ` +
        `declare the elicitation capability; change approval-policy / sandbox, or use a client that can elicit`,
    };
  }
  const choices = approvalChoices(request);
  const session = choices.find((c) => c.answer.decision === "approved_for_session");
  try {
    const response = await call.elicit({
      mode: "form",
      message: await approvalMessage(request, session),
      requestedSchema: {
        type: "object",
        properties: session
          ? {
            remember: {
              type: "boolean",
              title: "Don't ask again this session",
              description: withoutYes(session.label),
              default: false,
            },
          }
          : {},
      },
    }, call.signal);
    switch (response.action) {
      case "accept":
        return session && response.content?.remember === true ? session.answer : { decision: "approved" };
      case "decline":
        return { decision: "denied", reason: `the user declined (${request.reason})` };
      case "cancel":
        return { decision: "denied", reason: `the user dismissed the request (${request.reason})` };
      default: {
        const never: never = response.action;
        return never;
      }
    }
  } catch (error) {
    return { decision: "denied", reason: `the MCP client did not answer (${describeError(error)})` };
  }
}

async function approvalMessage(
  request: ApprovalRequest,
  session: ApprovalChoice | undefined,
): Promise<string> {
  const choices: ApprovalChoice[] = [
    { key: "accept", label: "yes, once", answer: { decision: "approved" } },
    ...(session
      ? [{ ...session, key: "remember", label: `accept with remember: ${withoutYes(session.label)}` }]
      : []),
    { key: "decline", label: "no: tell the model it was denied", answer: { decision: "denied" } },
  ];
  const prompt = await renderApprovalPrompt(request, choices, MESSAGE_COLUMNS);
  // The terminal's last line ("Answer (…): ") asks for a key; a form answers with its buttons.
  return prompt.split("\n").filter((line) => !line.startsWith("Answer (")).join("\n").trim();
}

/** "yes, and don't ask again … for this exact command (…)" → "don't ask again … (…)". */
function withoutYes(label: string): string {
  return label.replace(/^yes, and /, "");
}
