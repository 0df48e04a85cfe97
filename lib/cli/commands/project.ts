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
        const { project, file, changes, warnings } = await Workspace.setProjectTrust(
          ctx.platform,
          dir ? path.resolve(cwd, dir) : undefined,
          trusted,
          cwd,
        );
        let text = `${trusted ? "Trusted" : "No longer trusting"} ${project} (${file})\n`;
        if (changes) text += changeLines(changes);
        for (const problem of warnings) text += `warning: ${problem}\n`;
        await ctx.out(text);
      });
  }
}

/** What re-trusting took in, so a planted or changed layer file is seen before it loads (#20). */
type TrustChanges = NonNullable<Awaited<ReturnType<typeof Workspace.setProjectTrust>>["changes"]>;

function changeLines(changes: TrustChanges): string {
  const lines = [
    ...changes.added.map((file) => `  new:     ${file}`),
    ...changes.changed.map((file) => `  changed: ${file}`),
    ...changes.removed.map((file) => `  removed: ${file}`),
  ];
  return lines.length ? `Layer files since the last trust:\n${lines.join("\n")}\n` : "";
}
