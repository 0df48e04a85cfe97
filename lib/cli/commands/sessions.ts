import * as path from "node:path";
import type { Command } from "commander";
import { listSessions, Workspace } from "../../app/mod.ts";
import { terminalText } from "../../shared/mod.ts";
import type { CliContext } from "../context.ts";
import { sessionRow, sessionWarning } from "../interactive/session_list.ts";

/**
 * `trellis sessions [--all] [--json]`: the rows of the resume picker without a terminal (#21 item
 * 3) — id, when, where, the first prompt typed — newest first, this directory's unless --all.
 */
export function registerSessionsCommand(program: Command, ctx: CliContext): void {
  program.command("sessions")
    .description("list recorded sessions (this directory's; --all for every one), newest first")
    .option("--all", "the sessions of every directory")
    .option("--json", "one JSON object per session: id, cwd, modified, created, first_prompt, agents")
    .option("-C, --cd <dir>", "list as if started in <dir>")
    .action(async (options: { all?: boolean; json?: boolean; cd?: string }) => {
      const cwd = await ctx.cwd(options);
      const dir = path.join(Workspace.paths(ctx.platform, cwd).home, "sessions");
      const { sessions } = await listSessions(ctx.platform.fs, dir, { cwd: options.all ? null : cwd });
      for (const s of sessions) {
        const warning = sessionWarning(s);
        if (warning) ctx.err(`${terminalText(warning)}\n`);
      }
      if (options.json) {
        const rows = sessions.map((s) =>
          JSON.stringify({
            id: s.id,
            cwd: s.cwd,
            modified: new Date(s.modified).toISOString(),
            created: s.created,
            first_prompt: s.firstPrompt,
            agents: s.agents.map((a) => ({ id: a.id, agent_type: a.agentType })),
          }) + "\n"
        );
        await ctx.out(rows.join(""));
        return;
      }
      if (sessions.length === 0) {
        const where = options.all ? "" : ` for ${cwd} (--all lists every directory's)`;
        await ctx.out(`No recorded sessions${where} in ${dir}\n`);
        return;
      }
      const width = Math.max(...sessions.map((s) => s.id.length));
      await ctx.out(
        sessions.map((s) => `${s.id.padEnd(width)}  ${sessionRow(s).replace(/\n/g, " ")}\n`).join(""),
      );
    });
}
