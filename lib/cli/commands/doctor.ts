import type { Command } from "commander";
import { type DoctorRow, runDoctor } from "../../app/mod.ts";
import { terminalText, UsageError } from "../../shared/mod.ts";
import { type CliContext, withCommonOptions } from "../context.ts";

const LABEL: Record<DoctorRow["status"], string> = { ok: "ok", warn: "warn", fail: "FAIL", skip: "skip" };

/** `trellis doctor [--json] [--timeout SEC]`: every subsystem's self-check as one table; exit 1 on a failure. */
export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  withCommonOptions(
    program.command("doctor")
      .description("check config layers, trust, the sandbox, MCP servers, hooks, skills and plugins"),
  )
    .option("--json", "print the rows as JSON")
    .option("--timeout <sec>", "longest wait per MCP server and per hook", "10")
    .action(async (options) => {
      const timeoutSec = Number(options.timeout);
      if (!Number.isFinite(timeoutSec) || timeoutSec <= 0) {
        throw new UsageError(`Cannot use --timeout "${options.timeout}": give a positive number of seconds`, {
          field: "timeout",
        });
      }
      // A config file that does not parse is a row of the report, not the end of the command.
      const workspace = await ctx.workspace({ ...options, quietDiagnostics: true, skipInvalidFiles: true });
      const report = await runDoctor({ workspace, timeoutSec });
      if (report.failed) ctx.exitCode = 1;
      if (options.json) return void await ctx.out(JSON.stringify(report, null, 2) + "\n");
      await ctx.out(doctorTable(report.rows).join("\n") + "\n");
    });
}

/** status, check, detail; a row that is not ok gets its fix on the line below. */
export function doctorTable(rows: DoctorRow[]): string[] {
  const width = Math.max(5, ...rows.map((r) => r.check.length));
  const safe = (text: string) => terminalText(text, { lineBreaks: "show" });
  const lines = [`${"STATUS".padEnd(6)}  ${"CHECK".padEnd(width)}  DETAIL`];
  for (const r of rows) {
    lines.push(`${LABEL[r.status].padEnd(6)}  ${safe(r.check).padEnd(width)}  ${safe(r.detail)}`);
    if (r.fix && r.status !== "ok") lines.push(`${"".padEnd(6)}  ${"".padEnd(width)}  fix: ${safe(r.fix)}`);
  }
  const count = (s: DoctorRow["status"]) => rows.filter((r) => r.status === s).length;
  lines.push(
    "",
    `${rows.length} checks: ${count("ok")} ok, ${count("warn")} warning(s), ${count("fail")} failed, ${
      count("skip")
    } skipped`,
  );
  return lines;
}
