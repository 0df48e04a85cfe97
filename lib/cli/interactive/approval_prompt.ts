import type { ApprovalDecision, ApprovalRequest, Approver } from "../../app/mod.ts";
import { type Choice, choiceQuestion } from "./questions.ts";
import { coloredDiff } from "./tool_summary.ts";
import { wrap } from "./markdown_render.ts";
import { terminalSafe, terminalSafeLine } from "./terminal_text.ts";
import type { Ui } from "./ui.ts";

type Answer = "yes" | "always" | "no" | "explain";

/** Printed at most: a request bigger than this is cut, and says so. */
const MAX_REQUEST_LINES = 400;

/** What "always" covers: the exact command, the exact path, or this exact call. */
function scopeOf(request: ApprovalRequest): { key: string; label: string } | null {
  if (request.toolName === "request_plugin_install") return null;
  const args = (request.args ?? {}) as Record<string, unknown>;
  const command = Array.isArray(args.command) ? args.command.join(" ") : args.command;
  if (typeof command === "string") {
    return { key: `${request.toolName}\0command\0${command}`, label: "always for this exact command" };
  }
  if (typeof args.path === "string") {
    return { key: `${request.toolName}\0path\0${args.path}`, label: "always for this exact path" };
  }
  return { key: `${request.toolName}\0args\0${JSON.stringify(args)}`, label: "always for this exact call" };
}

/**
 * Approvals answered in place: the whole request is committed to the scrollback (the exact
 * command or path, wrapped, control characters shown; a write's diff), then one key answers —
 * yes, always (for this exact command or path, this session), no, or explain (asks the model what
 * the command does, then asks again). One request at a time.
 */
export function interactiveApprover(
  ui: Ui,
  options: { explain?: (request: ApprovalRequest) => Promise<string> },
): Approver {
  const always = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  const decide = async (request: ApprovalRequest) => {
    const scope = scopeOf(request);
    if (scope && always.has(scope.key)) return { decision: "approved_for_session" as ApprovalDecision };
    ui.print(requestLines(ui, request));
    let explained = !options.explain;
    for (;;) {
      const answer = await choose(ui, request, scope?.label ?? null, !explained);
      if (answer === "explain") {
        explained = true;
        ui.print([ui.colors.dim("  asking the model to explain…")]);
        const text = await options.explain!(request).catch((error) =>
          `(cannot explain: ${(error as Error).message})`
        );
        ui.print(
          wrap(terminalSafe(text.trim() || "(no explanation)"), ui.width() - 4).map((l) => `    ${l}`),
        );
        continue;
      }
      ui.print([answerLine(ui, answer, scope?.label)]);
      if (answer === "always" && scope) always.add(scope.key);
      return answer === "yes"
        ? { decision: "approved" as const }
        : answer === "always"
        ? { decision: "approved_for_session" as const }
        : { decision: "denied" as const, reason: "the user said no" };
    }
  };
  return {
    request(request) {
      const next = queue.then(() => decide(request));
      queue = next.catch(() => {});
      return next;
    },
  };
}

function choose(
  ui: Ui,
  request: ApprovalRequest,
  alwaysLabel: string | null,
  offerExplain: boolean,
): Promise<Answer> {
  const choices: Choice<Answer>[] = [{ key: "y", label: "yes", value: "yes" }];
  if (alwaysLabel) choices.push({ key: "a", label: alwaysLabel, value: "always" });
  choices.push({ key: "n", label: "no", value: "no" });
  if (offerExplain) choices.push({ key: "e", label: "explain", value: "explain" });
  return new Promise((resolve) => {
    void ui.ask(
      choiceQuestion(
        ui,
        { title: `Allow ${terminalSafeLine(request.toolName)}?`, choices, onEscape: "no" },
        resolve,
      ),
    );
  });
}

function answerLine(ui: Ui, answer: Answer, label?: string): string {
  const c = ui.colors;
  if (answer === "yes") return c.green(`  ${ui.glyphs.ok} approved`);
  if (answer === "always") return c.green(`  ${ui.glyphs.ok} approved, ${label ?? "always"} in this session`);
  return c.yellow(`  ${ui.glyphs.fail} denied`);
}

/** The whole request: what asks, why, and the exact command, path or arguments. */
export function requestLines(ui: Ui, request: ApprovalRequest): string[] {
  const c = ui.colors;
  const width = ui.width() - 4;
  const args = (request.args ?? {}) as Record<string, unknown>;
  const lines = [c.bold(c.yellow(`? ${terminalSafeLine(request.toolName)} needs approval`))];
  lines.push(...wrap(`reason: ${terminalSafe(request.reason)}`, width).map((l) => `  ${l}`));
  const command = Array.isArray(args.command) ? args.command.join(" ") : args.command;
  if (typeof command === "string") {
    // Control characters made visible and nothing cut: what is shown is what runs.
    lines.push(...wrap(`$ ${terminalSafe(command)}`, width).map((l) => `  ${c.bold(l)}`));
    if (typeof args.workdir === "string") lines.push(`  in ${terminalSafeLine(args.workdir)}`);
    return lines; // never cut: the person approves exactly this
  } else if (typeof args.path === "string") {
    lines.push(`  path: ${c.bold(terminalSafeLine(args.path))}`);
    if (typeof args.content === "string") lines.push(...coloredDiff("", args.content, c, ui.glyphs));
    if (typeof args.old_string === "string" && typeof args.new_string === "string") {
      lines.push(...coloredDiff(args.old_string, args.new_string, c, ui.glyphs));
    }
  } else {
    const text = terminalSafe(JSON.stringify(request.args, null, 2) ?? "");
    lines.push(...text.split("\n").flatMap((l) => wrap(l, width)).map((l) => `  ${l}`));
  }
  if (lines.length > MAX_REQUEST_LINES) {
    const hidden = lines.length - MAX_REQUEST_LINES;
    return [...lines.slice(0, MAX_REQUEST_LINES), c.dim(`  ${ui.glyphs.ellipsis} ${hidden} more lines`)];
  }
  return lines;
}
