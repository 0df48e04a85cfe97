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
import { checkResumeId, describeUntrusted, resolveResume, untrustedParts, Workspace } from "../../app/mod.ts";
import { VERSION } from "../version.ts";
import * as path from "node:path";

interface InteractiveFlags extends CommonOptions {
  model?: string;
  sandbox?: string;
  askForApproval?: string;
  maxSteps?: string;
  last?: boolean;
  all?: boolean;
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
      .option("--last", "continue the newest session recorded in this directory")
      .option("--all", "with --last or the picker: the sessions of every directory"),
  ).action((id: string | undefined, flags: InteractiveFlags) => {
    if (id !== undefined && flags.last) {
      throw new UsageError("Cannot resume: pass either a session id or --last, not both");
    }
    if (id !== undefined && flags.all) {
      throw new UsageError("Cannot resume: --all chooses among sessions; it does not go with a session id");
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
  const cwd = await ctx.cwd(flags);
  const sessionsDir = path.join(Workspace.paths(platform, cwd).home, "sessions");
  // exec resume's check, before the terminal is taken over or anything of a session is built;
  // `--last` is the newest session of this directory (of any with --all), as Codex picks it.
  let resume = args.resume;
  if (resume === "--last") {
    resume = (await resolveResume(platform.fs, sessionsDir, { last: true, cwd, all: flags.all === true })).id;
  } else if (resume && resume !== "pick") await checkResumeId(platform.fs, sessionsDir, resume);
  // A resumed session runs in the directory it was recorded in (#21 item 4): its instructions,
  // config layers and tools are that project's, not the one trellis was started in.
  const workspaces = new Map<string, Promise<Workspace>>();
  const workspaceAt = (dir: string, quiet: boolean) => {
    if (!workspaces.has(dir)) {
      workspaces.set(dir, ctx.workspace({ ...flags, cd: dir, config: overrides, quietDiagnostics: quiet }));
    }
    return workspaces.get(dir)!;
  };
  const recordedIn = async (id: string): Promise<string> => {
    const recorded = (await resolveResume(platform.fs, sessionsDir, { id })).cwd;
    const info = recorded ? await platform.fs.stat(recorded).catch(() => null) : null;
    return info?.isDirectory ? recorded : cwd;
  };
  let ws = await workspaceAt(resume && resume !== "pick" ? await recordedIn(resume) : cwd, false);
  const loaded = ws.loaded;
  // Trust on first start (#21 item 5): the gate is the same; a person at the terminal may open it.
  const untrusted = await untrustedParts(ws);
  const trustOffer = untrusted.length === 0 ? undefined : {
    root: loaded.paths.projectRoot,
    description: describeUntrusted(untrusted, loaded.paths.projectRoot),
    accept: async () => {
      const { file } = await Workspace.setProjectTrust(platform, undefined, true, loaded.paths.cwd);
      workspaces.clear();
      ws = await workspaceAt(loaded.paths.cwd, true);
      return file;
    },
  };
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
    ...(resume ? { resume } : {}),
    startedIn: cwd,
    ...(trustOffer ? { trustOffer } : {}),
    pickAll: flags.all === true,
    runCli: (argv, write) => runCommandLine([...argv, ...configFlags], write),
    openSession: async (parts) => {
      // The terminal is the app's now: a second workspace's diagnostics would garble it.
      const target = parts.resume ? await workspaceAt(await recordedIn(parts.resume), true) : ws;
      return await target.openSession({ interactive: true, watchSkills: true, ...parts });
    },
  });
  ctx.exitCode = await app.run();
}
