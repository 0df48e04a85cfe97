import * as path from "node:path";
import type { Command } from "commander";
import { Workspace } from "../../app/mod.ts";
import type { CliContext } from "../context.ts";

/** `trellis project trust|untrust [DIR]`: Codex's `[projects."<abs path>"] trust_level` in the user config. */
export function registerProjectCommand(program: Command, ctx: CliContext): void {
  const project = program.command("project").description("manage project trust");
  for (const trusted of [true, false]) {
    project.command(trusted ? "trust" : "untrust")
      .description(
        trusted
          ? "trust a project (default: the current one) so its .trellis config, .mcp.json and hooks may load"
          : "stop trusting a project",
      )
      .argument("[dir]", "project directory (default: the project root of the current directory)")
      .action(async (dir?: string) => {
        const cwd = await ctx.cwd();
        const { project, file } = await Workspace.setProjectTrust(
          ctx.platform,
          dir ? path.resolve(cwd, dir) : undefined,
          trusted,
          cwd,
        );
        await ctx.out(`${trusted ? "Trusted" : "No longer trusting"} ${project} (${file})\n`);
      });
  }
}
