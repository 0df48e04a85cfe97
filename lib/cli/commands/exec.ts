import type { Command } from "commander";
import { Session } from "../../app/mod.ts";
import { type Approver, noTtyApprover, ttyApprover, type TurnResult } from "../../loop/mod.ts";
import { emptyUsage, terminalText, UsageError } from "../../shared/mod.ts";
import { type CliContext, collect, type CommonOptions, withCommonOptions } from "../context.ts";
import { humanEventPrinter, jsonEventPrinter } from "../event_printer.ts";

interface ExecOptions extends CommonOptions {
  json?: boolean;
  model?: string;
  sandbox?: string;
  askForApproval?: string;
  maxSteps?: string;
  outputLastMessage?: string;
  skill?: string[];
}

/** `trellis exec [PROMPT|-]` and `trellis exec resume <id|--last> [PROMPT]`. */
export function registerExecCommand(program: Command, ctx: CliContext): void {
  const exec = execOptions(
    program.command("exec")
      .description("run one agent turn non-interactively (PROMPT, or - / nothing to read stdin)")
      .argument("[prompt]", "the prompt; - reads it from stdin"),
  ).action((prompt: string | undefined, options: ExecOptions) => runExec(ctx, { prompt, options }));
  execOptions(
    exec.command("resume")
      .description("continue a recorded session: resume <SESSION_ID> [PROMPT] or resume --last [PROMPT]")
      .argument("[session]", "session id (omit with --last)")
      .argument("[prompt]", "the prompt; - reads it from stdin")
      .option("--last", "continue the most recent session"),
  ).action(
    (first: string | undefined, second: string | undefined, local: ExecOptions & { last?: boolean }) => {
      // Flags before or after `resume` land on exec or on resume; both count.
      const options = mergeOptions(exec.opts(), local);
      if (options.last) {
        if (second !== undefined) {
          throw new UsageError("Cannot resume: pass either a session id or --last, not both");
        }
        return runExec(ctx, { prompt: first, options, resume: "--last" });
      }
      if (first === undefined) throw new UsageError("Cannot resume: pass a session id or --last");
      return runExec(ctx, { prompt: second, options, resume: first });
    },
  );
  exec.passThroughOptions(false);
}

function mergeOptions<T extends ExecOptions>(parent: ExecOptions, local: T): T {
  const merged = { ...local } as Record<string, unknown>;
  for (const [key, value] of Object.entries(parent)) {
    if (merged[key] === undefined || (key === "maxSteps" && value !== "50")) merged[key] = value;
  }
  merged.config = [...(parent.config ?? []), ...(local.config ?? [])];
  return merged as T;
}

function execOptions(command: Command): Command {
  return withCommonOptions(command)
    .option("--json", "print JSONL events on stdout")
    .option("-m, --model <model>", "model to use")
    .option("-s, --sandbox <mode>", "read-only | workspace-write | danger-full-access")
    .option("-a, --ask-for-approval <policy>", "untrusted | on-request | on-failure | never")
    .option("--max-steps <n>", "stop after this many model samplings", "50")
    .option("-o, --output-last-message <file>", "also write the final message to <file>")
    .option("--skill <name|path>", "inject this skill's SKILL.md into the turn; repeatable", collect);
}

async function runExec(
  ctx: CliContext,
  args: { prompt?: string; options: ExecOptions; resume?: string },
): Promise<void> {
  const { options } = args;
  const maxSteps = Number(options.maxSteps);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new UsageError(`Cannot use --max-steps "${options.maxSteps}": expected a positive whole number`);
  }
  const overrides = [...(options.config ?? [])];
  if (options.model) overrides.push(`model=${JSON.stringify(options.model)}`);
  if (options.sandbox) overrides.push(`sandbox_mode=${JSON.stringify(options.sandbox)}`);
  if (options.askForApproval) overrides.push(`approval_policy=${JSON.stringify(options.askForApproval)}`);
  const loaded = await ctx.loadConfig({ ...options, config: overrides });
  const prompt = await readPrompt(ctx, args.prompt);
  const events = options.json ? jsonEventPrinter(ctx) : humanEventPrinter(ctx);
  const approver: Approver = ctx.platform.isTerminal("stdin") && !promptFromStdin(args.prompt)
    ? ttyApprover({
      readLine: () => ctx.platform.readLine(),
      write: (t) => ctx.err(t),
      columns: () => ctx.platform.terminalColumns("stderr"),
    })
    : noTtyApprover;
  const session = await Session.open({
    platform: ctx.platform,
    loaded,
    events,
    approver,
    resume: args.resume,
  });
  const controller = new AbortController();
  const removeSigint = ctx.platform.onSignal("SIGINT", () => controller.abort());
  let result: TurnResult;
  try {
    const start = await session.start(controller.signal);
    result = start.stop
      ? { status: "stopped", lastMessage: null, usage: emptyUsage(), steps: 0 }
      : await session.runTurn({ prompt, maxSteps, signal: controller.signal, skills: options.skill ?? [] });
    if (start.stop) {
      events({ type: "notice", message: `SessionStart hook stopped the session: ${start.stop.reason}` });
    }
  } finally {
    removeSigint();
    await session.close();
  }
  if (!options.json && result.lastMessage !== null) {
    // On a terminal the model's escape sequences print as visible text (#13 item 11); a pipe gets the bytes.
    const shown = ctx.platform.isTerminal("stdout") ? terminalText(result.lastMessage) : result.lastMessage;
    await ctx.out(shown + "\n");
  }
  if (options.outputLastMessage && result.lastMessage !== null) {
    await ctx.platform.fs.writeFileAtomic(options.outputLastMessage, result.lastMessage + "\n");
  }
  ctx.exitCode = exitCodeOf(result);
}

function exitCodeOf(result: TurnResult): number {
  switch (result.status) {
    case "completed":
    case "blocked":
    case "stopped":
      return 0;
    case "aborted":
      return 130;
    case "failed":
    case "max_steps":
      return 1;
    default: {
      const never: never = result.status;
      return never;
    }
  }
}

function promptFromStdin(prompt: string | undefined): boolean {
  return prompt === undefined || prompt === "-";
}

async function readPrompt(ctx: CliContext, prompt: string | undefined): Promise<string> {
  if (!promptFromStdin(prompt)) return prompt!;
  if (prompt === undefined && ctx.platform.isTerminal("stdin")) {
    throw new UsageError("Cannot run exec: no prompt (pass PROMPT, or - to read it from stdin)");
  }
  const text = (await ctx.platform.readStdin()).trim();
  if (!text) throw new UsageError("Cannot run exec: the prompt read from stdin is empty");
  return text;
}
