import type { Command } from "commander";
import { mcpPinDiff, type ToolDiff, trustMcpTools } from "../../app/mod.ts";
import { type CliContext, withCommonOptions } from "../context.ts";
import { withRuntime } from "./mcp_runtime.ts";

/** Longest value `mcp diff` prints in full; longer ones are cut, with their length. */
const MAX_SHOWN_CHARS = 2000;

/**
 * `trellis mcp diff NAME` and `trellis mcp trust NAME [TOOL]` (issue #17 item 1): compare a
 * server's live tool definitions with their pins in `$TRELLIS_HOME/mcp_pins.json`, and accept them.
 */
export function registerMcpPinCommands(mcp: Command, ctx: CliContext): void {
  withCommonOptions(
    mcp.command("diff").description("show how a server's tools differ from their pinned definitions")
      .argument("<name>"),
  )
    .option("--json", "print JSON")
    .action((name: string, options) =>
      withRuntime(ctx, options, name, async (mcp) => {
        const { pinned, tools, diffs } = mcpPinDiff(mcp, name);
        if (options.json) {
          return void await ctx.out(JSON.stringify({ server: name, pinned, tools: diffs }, null, 2) + "\n");
        }
        if (!pinned) {
          return void await ctx.out(
            `MCP server '${name}' has no pinned tools yet: they are pinned the first time a session ` +
              `uses them, or now with \`trellis mcp trust ${name}\`.\n`,
          );
        }
        if (diffs.length === 0) {
          return void await ctx.out(`All ${tools.length} tools of MCP server '${name}' match their pins.\n`);
        }
        const out = [
          `MCP server '${name}': ${diffs.length} of ${tools.length} tools differ from their pins.`,
          "",
        ];
        for (const diff of diffs) out.push(...renderDiff(diff));
        out.push(
          `Accept with \`trellis mcp trust ${name}\` (every tool) or \`trellis mcp trust ${name} TOOL\`.`,
        );
        await ctx.out(out.join("\n") + "\n");
      })
    );
  withCommonOptions(
    mcp.command("trust").description("pin a server's current tool definitions (all, or one tool)")
      .argument("<name>").argument("[tool]"),
  )
    .action((name: string, tool: string | undefined, options) =>
      withRuntime(ctx, options, name, async (mcp) => {
        const { written, accepted, file } = await trustMcpTools(mcp, name, tool);
        await ctx.out(
          `Pinned ${written.length} tool${written.length === 1 ? "" : "s"} of MCP server '${name}'` +
            (accepted.length ? ` (accepted: ${accepted.join(", ")})` : "") + ` in ${file}.\n`,
        );
      })
    );
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}… (${text.length} chars)` : text;
}

/** One tool's changes, field by field: `- old` and `+ new`, values as JSON (control characters escaped). */
function renderDiff(diff: ToolDiff): string[] {
  const lines = [`${diff.tool}: ${diff.state}`];
  for (const change of diff.changes) {
    lines.push(`  ${change.field}`);
    if ("old" in change) lines.push(`    - ${shown(change.old)}`);
    if ("new" in change) lines.push(`    + ${shown(change.new)}`);
  }
  if (diff.more) lines.push(`  … and ${diff.more} more changed fields`);
  lines.push("");
  return lines;
}
