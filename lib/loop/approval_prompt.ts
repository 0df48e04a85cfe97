import { type CommandSandbox, memo, type SessionScope, terminalText } from "../shared/mod.ts";
import type { ApprovalAnswer, ApprovalRequest } from "./ports.ts";

/**
 * The approval prompt as text (#13 items 2, 3, 11): the whole request — never clipped — wrapped to
 * the terminal's width, every model-chosen character made visible, where the command would run said
 * in words, and one answer per line, session approvals naming exactly what they cover.
 */

export interface ApprovalChoice {
  key: string;
  label: string;
  /** A few words for a one-row key list under the whole prompt (the interactive mode's). */
  short?: string;
  answer: ApprovalAnswer;
}

const LABEL_WIDTH = 10;
const INDENT = "  ";
const MIN_WIDTH = 40;
// Runs of blanks at least this long print as `␠×N`: 330 spaces cannot push `; touch /x` out of sight.
const LONG_BLANK_RUN = 8;
const SCOPE_KEYS: Record<SessionScope["kind"], string> = {
  command: "a",
  path: "a",
  action: "a",
  command_prefix: "p",
  directory: "d",
};
const SCOPE_SHORT: Record<SessionScope["kind"], string> = {
  command: "always: this exact command",
  path: "always: this exact path",
  action: "always: this action",
  command_prefix: "always: this prefix",
  directory: "always: this directory",
};

/**
 * Codex's choices: once, each offered session scope, no (the model goes on), no and stop the turn.
 * Running a command outside the sandbox is never a side effect of "yes": it is asked as its own
 * request (`subject.sandbox` "outside"), and then "yes" itself says OUTSIDE.
 */
export function approvalChoices(request: ApprovalRequest): ApprovalChoice[] {
  const { subject } = request;
  const lifted = subject.kind === "command" && subject.sandbox !== "inside"
    ? placement(subject.sandbox)
    : null;
  return [
    lifted
      ? {
        key: "y",
        label: `yes, run it ${lifted}, once`,
        short: `yes, ${lifted}`,
        answer: { decision: "approved" },
      }
      : { key: "y", label: "yes, once", short: "yes", answer: { decision: "approved" } },
    ...request.sessionScopes.map((scope) => ({
      key: SCOPE_KEYS[scope.kind],
      label: `yes, and don't ask again this session ${scopeText(scope)}`,
      short: SCOPE_SHORT[scope.kind],
      answer: { decision: "approved_for_session" as const, scope },
    })),
    {
      key: "n",
      label: "no: tell the model it was denied",
      short: "no",
      answer: { decision: "denied", reason: `the user declined (${request.reason})` },
    },
    {
      key: "x",
      label: "no, and stop the turn",
      short: "no, stop the turn",
      answer: { decision: "abort", reason: "the user declined and stopped the turn" },
    },
  ];
}

type Wrap = (text: string, columns: number, options: { hard: boolean; trim: boolean }) => string;

// The wrapping library (display widths of wide characters included) loads only when someone is asked.
const loadWrap = memo(async (): Promise<Wrap> => (await import("wrap-ansi")).default);

/**
 * The whole request as lines wrapped to `width` columns: the heading (what asks, and where a
 * command runs), its fields (the exact command, cwd, reason …) and one line per choice. `exec` on a
 * terminal and the interactive mode both show exactly these lines.
 */
export async function approvalPromptLines(
  request: ApprovalRequest,
  choices: ApprovalChoice[],
  width: number,
): Promise<string[]> {
  const wrapAnsi = await loadWrap();
  const columns = Math.max(MIN_WIDTH, width);
  const field = (label: string, value: string, trim: boolean) => {
    const head = INDENT + label.padEnd(LABEL_WIDTH) + " ";
    const room = columns - head.length;
    const body = value.split("\n").flatMap((line) => wrapAnsi(line, room, { hard: true, trim }).split("\n"));
    return body.map((line, i) => (i === 0 ? head : " ".repeat(head.length)) + line);
  };
  const lines = [safe(heading(request))];
  for (const [label, value] of fields(request)) {
    // The command keeps every blank where it is; prose may wrap at its spaces.
    lines.push(...field(label, value, label !== "command"));
  }
  for (const choice of choices) lines.push(...field(`[${choice.key}]`, choice.label, true));
  return lines;
}

/** The prompt for `request` as `exec` writes it: the lines above, then the question. */
export async function renderApprovalPrompt(
  request: ApprovalRequest,
  choices: ApprovalChoice[],
  width: number,
): Promise<string> {
  const lines = ["", ...await approvalPromptLines(request, choices, width)];
  lines.push(`Answer (${choices.map((c) => c.key).join("/")}): `);
  return lines.join("\n");
}

function heading(request: ApprovalRequest): string {
  const { subject } = request;
  switch (subject.kind) {
    case "command":
      return `Approve: ${asker(request)} wants to run a command ${placement(subject.sandbox)}`;
    case "path":
      return `Approve: ${asker(request)} wants to ${subject.access} a path it may not touch unasked`;
    case "action":
      return `Approve: ${subject.name}${agentNote(request)} needs your approval`;
    default: {
      const never: never = subject;
      return never;
    }
  }
}

/** What asks: the tool, and the subagent whose call it is (#22 item 3), so a person knows who. */
function asker(request: ApprovalRequest): string {
  return `${request.toolName}${agentNote(request)}`;
}

/** ` (subagent TYPE, ID)` for a child's call, else "". */
export function agentNote(request: ApprovalRequest): string {
  return request.agent ? ` (subagent ${request.agent.type}, ${request.agent.id})` : "";
}

function fields(request: ApprovalRequest): [string, string][] {
  const { subject } = request;
  switch (subject.kind) {
    case "command":
      return [
        ["command", commandText(subject.command)],
        ["in", safe(subject.cwd)],
        ["runs", runsText(subject.sandbox)],
        ["reason", safe(request.reason)],
      ];
    case "path":
      return [["path", safe(subject.path)], ["access", subject.access], ["reason", safe(request.reason)]];
    case "action":
      return [["arguments", safe(JSON.stringify(subject.arguments ?? {}))], ["reason", safe(request.reason)]];
    default: {
      const never: never = subject;
      return never;
    }
  }
}

function placement(sandbox: CommandSandbox): string {
  return sandbox === "inside"
    ? "inside the sandbox"
    : sandbox === "outside"
    ? "OUTSIDE the sandbox"
    : "WITHOUT a sandbox";
}

function runsText(sandbox: CommandSandbox): string {
  switch (sandbox) {
    case "inside":
      return "inside the sandbox: its limits still apply; approving does not lift them";
    case "outside":
      return "OUTSIDE the sandbox, with your full rights: it can change or delete anything you can";
    case "unavailable":
      return "WITHOUT a sandbox (none is available here), with your full rights: " +
        "it can change or delete anything you can";
    default: {
      const never: never = sandbox;
      return never;
    }
  }
}

/** A scope that holds files is for their content now (#20 item 7): the prompt says so. */
function asNow(files: { path: string }[] | undefined): string {
  if (!files?.length) return "";
  const names = files.map((f) => safe(f.path));
  const shown = names.length > 3 ? [...names.slice(0, 3), `${names.length - 3} more`] : names;
  return `, while ${shown.join(", ")} ${files.length === 1 ? "stays as it is" : "stay as they are"} now`;
}

function scopeText(scope: SessionScope): string {
  switch (scope.kind) {
    case "command":
      return `for this exact command (in ${safe(scope.cwd)}, ${placement(scope.sandbox)})${
        asNow(scope.files)
      }`;
    case "command_prefix":
      return `for commands starting with "${safe(scope.prefix.join(" "))}" ` +
        `(in ${safe(scope.cwd)}, ${placement(scope.sandbox)})${asNow(scope.files)}`;
    case "path":
      return `to ${scope.access} this exact path`;
    case "directory":
      return `to ${scope.access} anything under ${safe(scope.directory)}/`;
    case "action":
      return `for ${safe(scope.name)}`;
    default: {
      const never: never = scope;
      return never;
    }
  }
}

/**
 * The command exactly, made visible: controls as symbols, tabs as `␉`, a long run of blanks as
 * `␠×N`, two or more empty lines as one `⋮ N empty lines` line; line breaks stay line breaks.
 */
export function commandText(command: string): string {
  const visible = safe(command).replace(/\t/g, "\u2409").replace(
    new RegExp(` {${LONG_BLANK_RUN},}`, "g"),
    (run) => `\u2420\u00d7${run.length}`,
  );
  return visible.replace(/\n((?:[ ]*\n){2,})/g, (_all, blanks: string) => {
    const count = blanks.split("\n").length - 1;
    return `\n\u22ee ${count} empty lines\n`;
  });
}

function safe(text: string): string {
  return terminalText(text);
}
