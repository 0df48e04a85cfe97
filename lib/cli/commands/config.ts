import type { Command } from "commander";
import { configReport } from "../../app/mod.ts";
import { type CliContext, withCommonOptions } from "../context.ts";

/** `trellis config show [--json]`: the effective config and, per value, the layer it came from. */
export function registerConfigCommand(program: Command, ctx: CliContext): void {
  const config = program.command("config").description("inspect configuration");
  withCommonOptions(
    config.command("show").description("print the effective config and where each value came from"),
  )
    .option("--json", "print JSON")
    .action(async (options) => {
      const report = await configReport(await ctx.workspace(options));
      if (options.json) return void await ctx.out(JSON.stringify(report, null, 2) + "\n");
      const { values, layers, project, compat, codex_not_taken: notTaken } = report;
      const width = Math.min(48, Math.max(...values.map((v) => v.key.length), 10));
      const lines = values.map((v) => `${v.key.padEnd(width)} = ${JSON.stringify(v.value)}    # ${v.source}`);
      lines.push("", `# layers: ${layers.map((l) => `${l.kind} (${l.source})`).join(" < ")}`);
      lines.push(
        `# project: ${project.root} (${project.trusted ? "trusted" : "not trusted"})`,
      );
      lines.push("# read in place from Codex and Claude Code (set the key to false to stop):");
      const keyWidth = Math.max(...compat.map((f) => f.key.length));
      for (const f of compat) {
        const state = `${f.enabled ? "on " : "off"} ${f.found ? "" : "(absent) "}`;
        lines.push(`#   ${f.key.padEnd(keyWidth)}  ${state}${f.path}: ${f.reads}`);
      }
      if (notTaken) lines.push(`# ${notTaken}`);
      await ctx.out(lines.join("\n") + "\n");
    });
}
