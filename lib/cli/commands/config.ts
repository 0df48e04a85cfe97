import type { Command } from "commander";
import { codexNotTakenLine, compatFiles, formatKeyPath, isTable } from "../../app/mod.ts";
import { type CliContext, withCommonOptions } from "../context.ts";

/** `trellis config show [--json]`: the effective config and, per value, the layer it came from. */
export function registerConfigCommand(program: Command, ctx: CliContext): void {
  const config = program.command("config").description("inspect configuration");
  withCommonOptions(
    config.command("show").description("print the effective config and where each value came from"),
  )
    .option("--json", "print JSON")
    .action(async (options) => {
      const loaded = await ctx.loadConfig(options);
      const values: { key: string; value: unknown; source: string }[] = [];
      walk(loaded.config as Record<string, unknown>, [], (keyPath, value) => {
        const key = formatKeyPath(keyPath);
        values.push({ key, value, source: loaded.provenance.get(key) ?? "built-in" });
      });
      // Other agents' files read in place, each with the switch that turns it off and whether it exists.
      const compat = await Promise.all(
        compatFiles(loaded).map(async (f) => ({
          ...f,
          found: (await ctx.platform.fs.stat(f.path)) !== null,
        })),
      );
      const notTaken = compatFiles(loaded).find((f) => f.key === "compat.codex_config")?.enabled
        ? codexNotTakenLine(ctx.platform.fs, loaded.paths)
        : null;
      if (options.json) {
        await ctx.out(
          JSON.stringify(
            {
              config: loaded.config,
              values,
              layers: loaded.layers.map((l) => ({ kind: l.kind, source: l.source })),
              project: { root: loaded.paths.projectRoot, trusted: loaded.projectTrusted },
              profile: loaded.profile ?? null,
              compat,
              codex_not_taken: notTaken,
            },
            null,
            2,
          ) + "\n",
        );
        return;
      }
      const width = Math.min(48, Math.max(...values.map((v) => v.key.length), 10));
      const lines = values.map((v) => `${v.key.padEnd(width)} = ${JSON.stringify(v.value)}    # ${v.source}`);
      lines.push("", `# layers: ${loaded.layers.map((l) => `${l.kind} (${l.source})`).join(" < ")}`);
      lines.push(
        `# project: ${loaded.paths.projectRoot} (${loaded.projectTrusted ? "trusted" : "not trusted"})`,
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

function walk(
  node: Record<string, unknown>,
  prefix: string[],
  visit: (p: string[], v: unknown) => void,
): void {
  for (const [key, value] of Object.entries(node)) {
    if (isTable(value) && Object.keys(value).length > 0) walk(value, [...prefix, key], visit);
    else visit([...prefix, key], value);
  }
}
