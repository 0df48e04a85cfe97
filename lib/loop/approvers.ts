import type { ApprovalDecision, ApprovalRequest, Approver } from "./ports.ts";

/** Without a terminal nobody can answer: deny, and say why so the model can adapt. */
export const noTtyApprover: Approver = {
  request: (request) =>
    Promise.resolve({
      decision: "denied" as ApprovalDecision,
      reason: `approval required (${request.reason}) but no terminal is attached to ask; ` +
        `rerun with a TTY, or change approval_policy / sandbox_mode`,
    }),
};

export interface PromptIo {
  readLine(): Promise<string | null>;
  write(text: string): void;
}

/** Prompts on the terminal: yes / no / always (for this tool, for the rest of the session). */
export function ttyApprover(io: PromptIo): Approver {
  const always = new Set<string>();
  let queue = Promise.resolve();
  const ask = async (request: ApprovalRequest) => {
    if (always.has(request.toolName)) return { decision: "approved_for_session" as const };
    const args = JSON.stringify(request.args);
    io.write(
      `\nApprove ${request.toolName} ${args.length > 300 ? args.slice(0, 300) + "…" : args}\n` +
        `  reason: ${request.reason}\n  [y]es / [n]o / [a]lways for this session: `,
    );
    const answer = (await io.readLine())?.trim().toLowerCase() ?? "";
    if (answer === "a" || answer === "always") {
      always.add(request.toolName);
      return { decision: "approved_for_session" as const };
    }
    if (answer === "y" || answer === "yes") return { decision: "approved" as const };
    return { decision: "denied" as const, reason: "denied by the user" };
  };
  return {
    // One prompt at a time, even when parallel calls all need approval.
    request(request) {
      const next = queue.then(() => ask(request));
      queue = next.then(() => {}, () => {});
      return next;
    },
  };
}
