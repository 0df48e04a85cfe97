import type { Command } from "commander";
import { UsageError } from "../../shared/mod.ts";
import {
  approvalOption,
  type CliContext,
  type CommonOptions,
  sandboxOption,
  sessionOverrides,
  withCommonOptions,
} from "../context.ts";
import { InteractiveApp } from "../interactive/app.ts";
import { checkResumeId } from "../../app/mod.ts";
import { VERSION } from "../version.ts";
import * as path from "node:path";

interface InteractiveFlags extends CommonOptions {
  model?: string;
  sandbox?: string;
  askForApproval?: string;
  maxSteps?: string;
  last?: boolean;
}

/** Runs a trellis command line in-process with its output sent to `write` (for /hooks, /plugins). */
export type RunCommandLine = (argv: string[], write: (text: string) => void) => Promise<number>;

function sessionOptions(command: Command): Command {
  return withCommonOptions(command)
    .option("-m, --model <model>", "model to use")
    .addOption(sandboxOption("read-only | workspace-write | danger-full-access"))
    .addOption(approvalOption("untrusted | on-request | on-failure | never"))
    .option("--max-steps <n>", "stop a turn after this many model samplings", "50");
}

/**
 * `trellis [PROMPT]` (the default command) and `trellis resume [--last | ID]`: an interactive
 * session on the terminal, with exec's config, flags, trust rules, extensions and transcripts.
 */
export function registerInteractiveCommand(
  program: Command,
  ctx: CliContext,
  runCommandLine: RunCommandLine,
): void {
  sessionOptions(
    program.command("interactive", { isDefault: true, hidden: true })
      .description("start an interactive session (the default: trellis [PROMPT])")
      .argument("[prompt...]", "the first prompt"),
  ).action((words: string[], flags: InteractiveFlags) =>
    runInteractive(ctx, runCommandLine, { prompt: words.join(" ") || undefined, flags })
  );
  sessionOptions(
    program.command("resume")
      .description("continue a recorded session interactively (a picker when no id is given)")
      .argument("[session]", "session id")
      .option("--last", "continue the most recent session"),
  ).action((id: string | undefined, flags: InteractiveFlags) => {
    if (id !== undefined && flags.last) {
      throw new UsageError("Cannot resume: pass either a session id or --last, not both");
    }
    return runInteractive(ctx, runCommandLine, { resume: flags.last ? "--last" : id ?? "pick", flags });
  });
}

async function runInteractive(
  ctx: CliContext,
  runCommandLine: RunCommandLine,
  args: { prompt?: string; resume?: string; flags: InteractiveFlags },
): Promise<void> {
  const { platform } = ctx;
  if (!platform.isTerminal("stdin") || !platform.isTerminal("stdout")) {
    throw new UsageError(
      "Cannot start an interactive session: stdin and stdout must be a terminal; run `trellis exec PROMPT` instead",
    );
  }
  const { flags } = args;
  const maxSteps = Number(flags.maxSteps ?? "50");
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new UsageError(`Cannot use --max-steps "${flags.maxSteps}": expected a positive whole number`);
  }
  const overrides = sessionOverrides(flags);
  const ws = await ctx.workspace({ ...flags, config: overrides });
  const loaded = ws.loaded;
  // exec resume's check, before the terminal is taken over or anything of a session is built.
  if (args.resume && args.resume !== "pick" && args.resume !== "--last") {
    await checkResumeId(platform.fs, path.join(loaded.paths.home, "sessions"), args.resume);
  }
  // The flags that select this config — those before the command word too — for the subcommands
  // /hooks and /plugins run in-process (a fresh command line, with no global options of its own).
  const profile = flags.profile ?? ctx.globalOptions.profile;
  const configFlags = [
    ...[...(ctx.globalOptions.config ?? []), ...overrides].flatMap((o) => ["-c", o]),
    ...(profile ? ["-p", profile] : []),
  ];
  const app = new InteractiveApp({
    platform,
    loaded,
    maxSteps,
    version: VERSION,
    ...(args.prompt ? { prompt: args.prompt } : {}),
    ...(args.resume ? { resume: args.resume } : {}),
    runCli: (argv, write) => runCommandLine([...argv, ...configFlags], write),
    openSession: (parts) => ws.openSession({ interactive: true, watchSkills: true, ...parts }),
  });
  ctx.exitCode = await app.run();
}
