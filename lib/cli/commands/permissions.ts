import type { Command } from "commander";
import type { PermissionRuleEntry } from "../../app/mod.ts";
import { type CliContext, printDiagnostics, withCommonOptions } from "../context.ts";

/** `trellis permissions list [--json]`: every permission rule, its kind and the file it came from. */
export function registerPermissionsCommand(program: Command, ctx: CliContext): void {
  const permissions = program.command("permissions").description(
    "permission rules (allow, ask, deny) from Claude Code's settings and [permissions]",
  );
  withCommonOptions(permissions.command("list").description("list every permission rule and its origin"))
    .option("--json", "print JSON")
    .action(async (options) => {
      const ws = await ctx.workspace(options);
      const { entries, diagnostics } = ws.permissionRules();
      printDiagnostics(ctx, diagnostics);
      if (options.json) {
        await ctx.out(JSON.stringify({ rules: entries.map(jsonEntry) }, null, 2) + "\n");
        return;
      }
      if (entries.length === 0) return void await ctx.out("No permission rules configured.\n");
      // Deny first: the order in which they decide a call.
      const order = { deny: 0, ask: 1, allow: 2 };
      const sorted = [...entries].sort((a, b) => order[a.kind] - order[b.kind]);
      const width = Math.max(...sorted.map((e) => e.text.length));
      const lines = sorted.map((e) =>
        `${e.kind.padEnd(5)} ${e.text.padEnd(width)}  ${e.origin}${
          e.ignored ? `\n      ignored: ${e.ignored}` : ""
        }`
      );
      await ctx.out(lines.join("\n") + "\n");
    });
}

function jsonEntry(entry: PermissionRuleEntry) {
  return {
    kind: entry.kind,
    rule: entry.text,
    origin: entry.origin,
    ...(entry.ignored ? { ignored: entry.ignored } : {}),
  };
}
