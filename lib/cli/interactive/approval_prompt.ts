import {
  type ApprovalAnswer,
  type ApprovalChoice,
  approvalChoices,
  approvalPromptLines,
  type ApprovalRequest,
  type Approver,
  promptingApprover,
  type Session,
} from "../../app/mod.ts";
import { terminalText } from "../../shared/mod.ts";
import { type Choice, choiceQuestion } from "./questions.ts";
import { coloredDiff } from "./tool_summary.ts";
import { wrap } from "./markdown_render.ts";
import type { Ui } from "./ui.ts";

const EXPLAIN = "explain";

/** The model's account of what a call would do and what could go wrong (the "explain" choice). */
export async function explainCall(
  session: Session,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<string> {
  const { subject } = request;
  const what = subject.kind === "command"
    ? `the shell command (run in ${subject.cwd}):\n${subject.command}`
    : subject.kind === "path"
    ? `${subject.access} access to ${subject.path}; arguments: ${JSON.stringify(request.args)}`
    : JSON.stringify(request.args);
  return await session.ask(
    `Explain what this ${request.toolName} call does and what could go wrong, for someone deciding whether to allow it:\n${what}`,
    signal,
  );
}

/**
 * Approvals answered in place (#15 item 4, #13 items 2–3): the whole request goes to the scrollback
 * in the same words `exec` prints on a terminal (`approvalPromptLines`: the exact command wrapped
 * with its controls visible, where it runs, the reason, every choice with the exact scope it
 * grants), plus a write's diff; then one key answers — yes once (for a command the sandbox would
 * not hold, "yes" says OUTSIDE), always for the exact command / the named prefix / the exact path /
 * the named directory, no, no and stop the turn, or explain (the model says what the call does,
 * then the question comes again). Session approvals are the loop's (`promptingApprover`): one
 * question at a time, a scope granted earlier answers without asking.
 */
export function interactiveApprover(
  ui: Ui,
  options: { explain?: (request: ApprovalRequest) => Promise<string> },
): Approver {
  return promptingApprover((request) => ask(ui, request, options));
}

async function ask(
  ui: Ui,
  request: ApprovalRequest,
  options: { explain?: (request: ApprovalRequest) => Promise<string> },
): Promise<ApprovalAnswer> {
  const choices = approvalChoices(request);
  ui.print(await requestLines(ui, request, choices, Boolean(options.explain)));
  let offerExplain = Boolean(options.explain);
  for (;;) {
    const picked = await choose(ui, choices, offerExplain);
    if (picked === EXPLAIN) {
      offerExplain = false;
      ui.print([ui.colors.dim("  asking the model to explain…")]);
      const text = await options.explain!(request).catch((error) =>
        `(cannot explain: ${(error as Error).message})`
      );
      ui.print(
        wrap(terminalText(text.trim() || "(no explanation)", { tabWidth: 2 }), ui.width() - 4)
          .map((l) => `    ${l}`),
      );
      continue;
    }
    ui.print([answerLine(ui, picked)]);
    return picked.answer;
  }
}

function choose(
  ui: Ui,
  choices: ApprovalChoice[],
  offerExplain: boolean,
): Promise<ApprovalChoice | typeof EXPLAIN> {
  const keys: Choice<ApprovalChoice | typeof EXPLAIN>[] = choices.map((choice) => ({
    key: choice.key,
    label: choice.short ?? choice.label,
    value: choice,
  }));
  if (offerExplain) keys.push({ key: "e", label: "explain", value: EXPLAIN });
  const no = choices.find((c) => c.answer.decision === "denied")!;
  // Esc declines (the model goes on); Ctrl-C stops the turn, as everywhere else (#21 item 2).
  const stop = choices.find((c) => c.answer.decision === "abort") ?? no;
  return new Promise((resolve) => {
    void ui.ask(
      // The request printed every choice with what it grants: the question shows the keys once more only.
      choiceQuestion(ui, {
        title: "Approve?",
        choices: keys,
        onEscape: no,
        onInterrupt: stop,
        keysOnly: true,
      }, resolve),
    );
  });
}

function answerLine(ui: Ui, choice: ApprovalChoice): string {
  const c = ui.colors;
  switch (choice.answer.decision) {
    case "approved":
      return c.green(`  ${ui.glyphs.ok} approved once`);
    case "approved_for_session":
      return c.green(`  ${ui.glyphs.ok} approved: ${choice.label.replace(/^yes, and /, "")}`);
    case "denied":
      return c.yellow(`  ${ui.glyphs.fail} denied`);
    case "abort":
      return c.yellow(`  ${ui.glyphs.fail} denied; the turn stops`);
  }
}

/**
 * The whole request: the shared prompt lines (the heading in colour), the write's diff for a file
 * tool, and the explain choice this mode adds.
 */
export async function requestLines(
  ui: Ui,
  request: ApprovalRequest,
  choices: ApprovalChoice[],
  offerExplain: boolean,
): Promise<string[]> {
  const c = ui.colors;
  const [heading, ...rest] = await approvalPromptLines(request, choices, ui.width() - 1);
  const firstChoice = rest.findIndex((line) => line.startsWith(`  [${choices[0].key}]`));
  const diff: string[] = [];
  const args = (request.args ?? {}) as Record<string, unknown>;
  if (request.subject.kind === "path" && request.subject.access === "write") {
    if (typeof args.content === "string") diff.push(...coloredDiff("", args.content, c, ui.glyphs));
    if (typeof args.old_string === "string" && typeof args.new_string === "string") {
      diff.push(...coloredDiff(args.old_string, args.new_string, c, ui.glyphs));
    }
  }
  const lines = [
    c.bold(c.yellow(`? ${heading}`)),
    ...rest.slice(0, firstChoice),
    ...diff,
    ...rest.slice(firstChoice),
  ];
  if (offerExplain) lines.push(`  ${"[e]".padEnd(10)} explain: ask the model what this does, then answer`);
  return lines;
}
