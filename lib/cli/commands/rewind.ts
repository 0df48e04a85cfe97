import * as path from "node:path";
import type { Command } from "commander";
import { resolveResume, rewindSession, type SessionRewindOutcome, Workspace } from "../../app/mod.ts";
import { terminalText, UsageError } from "../../shared/mod.ts";
import type { CliContext } from "../context.ts";
import { rewindReport } from "../rewind_report.ts";

interface RewindFlags {
  to?: string;
  last?: boolean;
  all?: boolean;
  conversation?: boolean;
  keepFiles?: boolean;
  force?: boolean;
  dryRun?: boolean;
  yes?: boolean;
  json?: boolean;
  cd?: string;
}

/**
 * `trellis rewind [SESSION | --last] --to N` (#25 item 2): files back to their state before turn N
 * (as `/rewind` numbers turns); `--conversation` also cuts the conversation there, so `resume`
 * continues from before it. On a terminal it shows the plan and asks; otherwise it just does it.
 */
export function registerRewindCommand(program: Command, ctx: CliContext): void {
  program.command("rewind")
    .description("put files (and with --conversation the conversation) back to before turn N of a session")
    .argument("[session]", "session id (default: --last)")
    .requiredOption("--to <n>", "the turn to go back before, counted from 1 as /rewind shows them")
    .option("--last", "the newest session recorded in this directory")
    .option("--all", "with --last: the newest of every directory")
    .option("--conversation", "also cut the conversation to before turn N (resume continues from there)")
    .option("--keep-files", "with --conversation: leave the files as they are")
    .option("--force", "also put back files edited since the agent left them (default: kept, and named)")
    .option("--dry-run", "say what would be done, do nothing")
    .option("-y, --yes", "do not ask on a terminal")
    .option("--json", "the outcome as one JSON object")
    .option("-C, --cd <dir>", "as if started in <dir>")
    .action(async (id: string | undefined, flags: RewindFlags) => {
      if (id !== undefined && flags.last) {
        throw new UsageError("Cannot rewind: pass either a session id or --last, not both");
      }
      if (flags.keepFiles && !flags.conversation) {
        throw new UsageError(
          "Cannot rewind: --keep-files goes with --conversation (there is nothing else to rewind)",
        );
      }
      const to = Number(flags.to);
      if (!/^\d+$/.test(flags.to ?? "") || !Number.isSafeInteger(to)) {
        throw new UsageError(`Cannot use --to "${flags.to}": expected a turn number (1, 2, …)`, {
          field: "to",
        });
      }
      const { platform } = ctx;
      const cwd = await ctx.cwd(flags);
      const home = Workspace.paths(platform, cwd).home;
      const sessionsDir = path.join(home, "sessions");
      const sessionId = id ??
        (await resolveResume(platform.fs, sessionsDir, { last: true, cwd, all: flags.all === true })).id;
      const request = {
        fs: platform.fs,
        home,
        sessionId,
        to,
        files: !flags.keepFiles,
        conversation: flags.conversation === true,
        force: flags.force === true,
      };
      const onTerminal = platform.isTerminal("stdin") && platform.isTerminal("stdout");
      if (onTerminal && !flags.yes && !flags.dryRun && !flags.json) {
        const plan = await rewindSession({ ...request, dryRun: true });
        await ctx.out(terminalText(rewindReport(plan).join("\n")) + "\n");
        await ctx.out("Rewind? [y/N] ");
        await ctx.flush();
        const answer = (await platform.readLine()) ?? "";
        if (!/^y(es)?$/i.test(answer.trim())) {
          await ctx.out("Nothing rewound.\n");
          return;
        }
      }
      const outcome = await rewindSession({ ...request, dryRun: flags.dryRun === true });
      if (outcome.failed.length) {
        ctx.exitCode = 1;
        if (request.conversation) {
          ctx.err("The conversation was not rewound: some files could not be put back.\n");
        }
      }
      if (flags.json) return await ctx.out(JSON.stringify(outcomeJson(outcome)) + "\n");
      await ctx.out(terminalText(rewindReport(outcome).join("\n")) + "\n");
    });
}

function outcomeJson(o: SessionRewindOutcome) {
  return {
    session_id: o.sessionId,
    to: o.to,
    dry_run: o.dryRun,
    restored: o.dryRun ? o.restore.map((r) => r.path) : o.restored,
    kept_edited: o.kept,
    failed: o.failed,
    not_restorable: o.shellCommands,
    conversation: o.conversation,
    ...(o.savedTranscript ? { saved_transcript: o.savedTranscript } : {}),
  };
}
