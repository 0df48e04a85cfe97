import type { Command } from "commander";
import { importInto, type ImportItem, type ImportPlan, readImportSources } from "../../app/mod.ts";
import { UsageError } from "../../shared/mod.ts";
import { type CliContext, printDiagnostics, withCommonOptions } from "../context.ts";

/**
 * `trellis import codex|claude [--dry-run] [--force]`: copies the MCP servers and hooks a Codex or
 * Claude Code user has into Trellis's user config, through the one locked, verified, atomic editor.
 * Nothing of Trellis's is overwritten without `--force`; everything left out is named with why.
 */
export function registerImportCommand(program: Command, ctx: CliContext): void {
  withCommonOptions(
    program.command("import")
      .description(
        "copy a Codex or Claude Code user's MCP servers, hooks (and Codex's model keys) into Trellis's config",
      )
      .argument("<from>", "codex ($CODEX_HOME) or claude (~/.claude.json, ~/.claude/settings.json)"),
  )
    .option("--dry-run", "print what would be written; write nothing")
    .option("--force", "replace Trellis's servers of the same name; append to events it already has")
    .action(async (from: string, options) => {
      if (from !== "codex" && from !== "claude") {
        throw new UsageError(`Cannot import from "${from}": expected codex or claude`, { field: "from" });
      }
      const ws = await ctx.workspace(options);
      const sources = readImportSources(ws.platform.fs, ws.loaded, from);
      printDiagnostics(ctx, sources.diagnostics);
      // A dry run goes through the same editor and checks, and stops before the lock and the write.
      const { plan, file, preview } = await importInto(ws.platform.fs, ws.loaded, sources, {
        force: options.force === true,
        dryRun: options.dryRun === true,
      });
      await ctx.out(report(plan, file, preview, sources.switches));
      if (sources.notTaken) {
        await ctx.out(
          `Not taken from ${sources.notTaken.from} (Trellis's own config decides these): ${
            sources.notTaken.keys.join(", ")
          }\n`,
        );
      }
    });
}

function report(
  plan: ImportPlan,
  file: string,
  preview: { before: string; after: string } | undefined,
  switches: string[],
): string {
  const dryRun = preview !== undefined;
  const written = plan.items.filter((i) => i.action !== "skip");
  const skipped = plan.items.filter((i) => i.action === "skip");
  const lines: string[] = [];
  if (written.length === 0) lines.push(`Nothing to import into ${file}.`);
  else {
    lines.push(`${dryRun ? "Would import" : "Imported"} ${written.length} item(s) into ${file}:`);
    for (const item of written) lines.push(line(item));
  }
  if (skipped.length) {
    lines.push(`${dryRun ? "Would skip" : "Skipped"} ${skipped.length}:`);
    for (const item of skipped) lines.push(line(item));
  }
  if (preview && preview.after !== preview.before) {
    lines.push(
      "",
      `Would change ${file} (+ added, - removed lines):`,
      ...lineDiff(preview.before, preview.after),
    );
  }
  if (written.length && switches.length) {
    lines.push(
      "",
      `These files are also read in place; to use only Trellis's copy, set ${
        switches.map((s) => `${s} = false`).join(", ")
      } in ${file}.`,
    );
  }
  return lines.join("\n") + "\n";
}

function line(item: ImportItem): string {
  const sign = item.action === "skip" ? "-" : item.action === "add" ? "+" : "~";
  const what = item.action === "replace" ? " (replaced)" : item.action === "append" ? " (appended)" : "";
  const why = item.reason ? `: ${item.reason}` : "";
  const notes = item.notes.map((n) => `\n      ${n}`).join("");
  return `  ${sign} ${item.key}${what} from ${item.from}${why}${notes}`;
}

/** The lines that differ between two texts (a longest-common-subsequence diff; config files are small). */
export function lineDiff(before: string, after: string): string[] {
  const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const b = after === "" ? [] : after.replace(/\n$/, "").split("\n");
  const common: number[][] = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) [i, j] = [i + 1, j + 1];
    else if (j < b.length && (i === a.length || common[i][j + 1] >= common[i + 1][j])) {
      out.push(`+ ${b[j++]}`);
    } else out.push(`- ${a[i++]}`);
  }
  return out;
}
