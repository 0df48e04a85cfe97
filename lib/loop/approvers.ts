import { approvalChoices, renderApprovalPrompt } from "./approval_prompt.ts";
import type { ApprovalAnswer, ApprovalRequest, Approver } from "./ports.ts";
import { SessionApprovals } from "./session_scopes.ts";

/** Without a terminal nobody can answer: deny by policy, and say why so the model can adapt. */
export const noTtyApprover: Approver = {
  request: (request) =>
    Promise.resolve({
      decision: "denied",
      by: "policy",
      reason: `approval required (${request.reason}) but no terminal is attached to ask; ` +
        `rerun with a TTY, or change approval_policy / sandbox_mode`,
    }),
};

export interface PromptIo {
  readLine(): Promise<string | null>;
  write(text: string): void;
  /** The terminal's width in columns, when known (default 80). */
  columns?(): number | undefined;
  /**
   * One key from the terminal (#21 item 6), when it can be read raw: one of `keys`, `escape` for
   * Esc (no), `interrupt` for Ctrl-C (no, and stop the turn), null when input ends. Without it a
   * line is read and its word matched.
   */
  readKey?(keys: string[], options: { escape: string; interrupt?: string }): Promise<string | null>;
}

const DEFAULT_COLUMNS = 80;
const MAX_ATTEMPTS = 3;

/**
 * Prompts on the terminal with the whole request (approval_prompt.ts): yes once, yes for a session
 * scope the prompt names, no, or no and stop the turn. Remembers session approvals per scope and
 * asks one question at a time, even when parallel calls all need approval.
 */
export function ttyApprover(io: PromptIo): Approver {
  return promptingApprover((request) => askOnTty(io, request));
}

/**
 * An approver that asks a person through `ask` (the line prompt of `exec`, the interactive mode's
 * in-place question): one question at a time, and a request an earlier session approval covers —
 * one given while it waited included — is answered without asking.
 */
export function promptingApprover(ask: (request: ApprovalRequest) => Promise<ApprovalAnswer>): Approver {
  return oneAtATime(rememberingApprover(ask));
}

/**
 * Answers from earlier session approvals without asking (`by: "session"`); otherwise asks, and
 * records the scope a person chose — only if the request offered it.
 */
export function rememberingApprover(
  ask: (request: ApprovalRequest) => Promise<ApprovalAnswer>,
  approvals: SessionApprovals = new SessionApprovals(),
): Approver {
  return {
    async request(request) {
      const covered = approvals.covering(request.subject);
      if (covered) return { decision: "approved_for_session", scope: covered, by: "session" };
      const answer = await ask(request);
      if (answer.decision !== "approved_for_session") return answer;
      const scope = approvals.grant(request.sessionScopes, answer.scope);
      return scope ? { ...answer, scope } : { ...answer, decision: "approved", scope: undefined };
    },
  };
}

function oneAtATime(approver: Approver): Approver {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    request(request) {
      const next = queue.then(() => approver.request(request));
      queue = next.catch(() => {});
      return next;
    },
  };
}

async function askOnTty(io: PromptIo, request: ApprovalRequest): Promise<ApprovalAnswer> {
  const choices = approvalChoices(request);
  io.write(await renderApprovalPrompt(request, choices, io.columns?.() ?? DEFAULT_COLUMNS));
  if (io.readKey) {
    const keys = choices.map((c) => c.key);
    const key = await io.readKey(keys, {
      escape: "n",
      ...(keys.includes("x") ? { interrupt: "x" } : {}),
    });
    const choice = choices.find((c) => c.key === key);
    io.write(`${choice ? choice.key : ""}\n`);
    if (!choice) return { decision: "denied", reason: `no answer: input ended (${request.reason})` };
    return choice.answer;
  }
  for (let attempt = 1;; attempt++) {
    const line = await io.readLine();
    if (line === null) {
      return { decision: "denied", reason: `no answer: input ended (${request.reason})` };
    }
    const typed = line.trim().toLowerCase();
    const choice = choices.find((c) => c.key === typed || ALIASES[typed] === c.key);
    if (choice) return choice.answer;
    if (attempt === MAX_ATTEMPTS) {
      return { decision: "denied", reason: `no valid answer (${request.reason})` };
    }
    io.write(`Type one of ${choices.map((c) => c.key).join(", ")}: `);
  }
}

const ALIASES: Record<string, string> = { yes: "y", no: "n", always: "a", abort: "x", stop: "x" };
