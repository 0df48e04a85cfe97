import * as nodePath from "node:path";
import { type Command, Option } from "commander";
import {
  type Approver,
  checkGitRepo,
  checkResumeId,
  loadOutputSchema,
  noTtyApprover,
  type OutputSchema,
  repairPrompt,
  type Session,
  ttyApprover,
  type TurnResult,
  type Workspace,
  type WorkspaceSessionOptions,
} from "../../app/mod.ts";
import { describeError, type EventSink, isTrellisError, TrellisError, UsageError } from "../../shared/mod.ts";
import {
  approvalOption,
  type CliContext,
  collect,
  type CommonOptions,
  sandboxOption,
  sessionOverrides,
  withCommonOptions,
} from "../context.ts";
import { execTerminal } from "../exec_terminal.ts";

interface ExecOptions extends CommonOptions {
  json?: boolean;
  model?: string;
  sandbox?: string;
  askForApproval?: string;
  maxSteps?: string;
  outputLastMessage?: string;
  skill?: string[];
  skipGitRepoCheck?: boolean;
  outputSchema?: string;
  fullAuto?: boolean;
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
    .addOption(sandboxOption("read-only | workspace-write | danger-full-access"))
    .addOption(approvalOption("untrusted | on-request | on-failure | never"))
    .option("--max-steps <n>", "stop after this many model samplings", "50")
    .option("-o, --output-last-message <file>", "also write the final message to <file>")
    .option("--skill <name|path>", "inject this skill's SKILL.md into the turn; repeatable", collect)
    .option("--skip-git-repo-check", "allow running outside a git repository (Codex's flag)")
    .option(
      "--output-schema <file>",
      "a JSON Schema the final answer must match (one repair request, else exit 1)",
    )
    // Hidden as in Codex, which dropped it: scripts written for older Codex still run (#25 item 3).
    .addOption(new Option("--full-auto", "same as --sandbox workspace-write (deprecated)").hideHelp());
}

/**
 * `--full-auto` as the last Codex that accepted it read it: the workspace-write sandbox, with its
 * deprecation warning. Beside a different `-s` it is a contradiction, refused before anything runs.
 */
function applyFullAuto(ctx: CliContext, options: ExecOptions): void {
  if (!options.fullAuto) return;
  if (options.sandbox !== undefined && options.sandbox !== "workspace-write") {
    throw new UsageError(
      `Cannot use --full-auto with --sandbox ${options.sandbox}: --full-auto means --sandbox workspace-write`,
    );
  }
  options.sandbox = "workspace-write";
  ctx.err("warning: `--full-auto` is deprecated; use `--sandbox workspace-write` instead.\n");
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
  if (options.outputLastMessage) await checkOutputFile(ctx, options.outputLastMessage);
  applyFullAuto(ctx, options);
  // Read and compiled before anything runs: a file that is not a schema is a usage error (exit 2).
  const schema = options.outputSchema
    ? await loadOutputSchema(ctx.platform.fs, nodePath.resolve(ctx.platform.cwd(), options.outputSchema))
    : undefined;
  const overrides = sessionOverrides(options);
  const ws = await ctx.workspace({ ...options, config: overrides });
  // The check `trellis resume` makes too, before anything of the session is built.
  if (args.resume !== undefined && args.resume !== "--last") {
    await checkResumeId(ctx.platform.fs, nodePath.join(ws.loaded.paths.home, "sessions"), args.resume);
  }
  const prompt = await readPrompt(ctx, args.prompt);
  // After config and prompt, before any session: where `codex exec` makes the same check.
  if (!options.skipGitRepoCheck) checkGitRepo(ctx.platform.fs, ws.loaded.paths.cwd);
  // A person can answer on the terminal when stdin is one and is not where the prompt came from.
  const canAsk = ctx.platform.isTerminal("stdin") && !promptFromStdin(args.prompt);
  const terminal = execTerminal(ctx, { json: Boolean(options.json), answers: canAsk });
  const approver: Approver = canAsk
    ? ttyApprover({
      readLine: () => terminal.platform.readLine(),
      write: (t) => terminal.platform.writeStderr(t),
      columns: () => ctx.platform.terminalColumns("stderr"),
      // One key answers, as in the session (#21 item 6).
      ...(terminal.readKey ? { readKey: terminal.readKey } : {}),
    })
    : noTtyApprover;
  const controller = new AbortController();
  // The reader of stdout went away (`| head`): stop the turn, so no further tool runs for nobody.
  const stopOnClosedStdout = () => controller.abort();
  ctx.stdoutClosed.addEventListener("abort", stopOnClosedStdout, { once: true });
  const removeSigint = ctx.platform.onSignal("SIGINT", () => controller.abort());
  let result: TurnResult;
  // What is still wrong with the final answer after the one repair request, if anything.
  let mismatch: string | null = null;
  try {
    const session = await openSession(ctx, Boolean(options.json), ws, {
      platform: terminal.platform,
      events: terminal.events,
      approver,
      // Elicitation forms too; `exec --json` declines them (its stdout is for a program).
      interactive: canAsk && !options.json,
      resume: args.resume,
      ...(schema ? { outputSchema: schema.schema } : {}),
    });
    try {
      // A SessionStart hook's stop is the session's to handle: the turn ends `stopped`, said once.
      result = await session.runTurn({
        prompt,
        maxSteps,
        signal: controller.signal,
        skills: options.skill ?? [],
      });
      if (schema && result.status === "completed") {
        ({ result, mismatch } = await matchSchema(
          schema,
          result,
          (repair) => session.runTurn({ prompt: repair, maxSteps, signal: controller.signal }),
        ));
      }
    } finally {
      await session.close();
    }
  } finally {
    terminal.close();
    removeSigint();
    ctx.stdoutClosed.removeEventListener("abort", stopOnClosedStdout);
  }
  if (schema && mismatch !== null) {
    await ctx.flush();
    throw new TrellisError(
      "output_schema",
      `The final answer does not match --output-schema "${options.outputSchema}" after one repair request: ${mismatch}`,
      { file: schema.file },
    );
  }
  if (options.outputLastMessage && result.lastMessage !== null) {
    await writeOutputFile(ctx, options.outputLastMessage, result.lastMessage + "\n");
  }
  await ctx.flush();
  ctx.exitCode = ctx.stdoutClosed.aborted ? EXIT_STDOUT_CLOSED : exitCodeOf(result);
}

/**
 * The final answer against `--output-schema`: a mismatch gets one repair request — a user message
 * saying what was wrong — and what is still wrong after it is the turn's failure (exit 1).
 */
async function matchSchema(
  schema: OutputSchema,
  first: TurnResult,
  repair: (prompt: string) => Promise<TurnResult>,
): Promise<{ result: TurnResult; mismatch: string | null }> {
  const problem = schema.check(first.lastMessage ?? "");
  if (problem === null) return { result: first, mismatch: null };
  const result = await repair(repairPrompt(schema, problem));
  if (result.status !== "completed") return { result, mismatch: null };
  return { result, mismatch: schema.check(result.lastMessage ?? "") };
}

/** What a process killed by SIGPIPE reports (128 + 13), as `yes | head` does: quiet, but not success. */
const EXIT_STDOUT_CLOSED = 141;

/**
 * Opens the session; when it cannot start after the thread did (a required MCP server failed,
 * MCP-7), the `--json` stream still ends with `turn.failed`, as a `codex exec --json` reader expects.
 */
async function openSession(
  ctx: CliContext,
  json: boolean,
  ws: Workspace,
  options: WorkspaceSessionOptions,
): Promise<Session> {
  let threadId: string | null = null;
  const events: EventSink = (event) => {
    if (event.type === "thread.started") threadId = event.thread_id;
    options.events(event);
  };
  try {
    return await ws.openSession({ ...options, events });
  } catch (error) {
    // On a terminal the error line that follows says it: once, not also as "turn failed" (#21 item 11).
    if (threadId !== null && json) {
      options.events({
        type: "turn.failed",
        turn_id: `${threadId}-t1`,
        error: { message: describeError(error), code: isTrellisError(error) ? error.code : "internal" },
      });
      await ctx.flush();
    }
    throw error;
  }
}

/** `-o FILE` must be writable as a file: refused before the turn runs, not after it. */
async function checkOutputFile(ctx: CliContext, file: string): Promise<void> {
  const info = await ctx.platform.fs.stat(file).catch(() => null);
  if (info?.isDirectory) {
    throw new UsageError(`Cannot write the last message to "${file}": it is a directory`, { file });
  }
  const parent = await ctx.platform.fs.stat(nodePath.dirname(nodePath.resolve(ctx.platform.cwd(), file)))
    .catch(() => null);
  if (!parent?.isDirectory) {
    throw new UsageError(`Cannot write the last message to "${file}": its folder does not exist`, { file });
  }
}

async function writeOutputFile(ctx: CliContext, file: string, text: string): Promise<void> {
  try {
    await ctx.platform.fs.writeFileAtomic(file, text);
  } catch (error) {
    throw new TrellisError("io", `Cannot write the last message to "${file}": ${describeError(error)}`, {
      file,
    });
  }
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
