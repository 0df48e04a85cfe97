import type { Command } from "commander";
import { Session } from "../../app/mod.ts";
import { noTtyApprover } from "../../loop/mod.ts";
import { discardEvents } from "../../shared/mod.ts";
import { type CliContext, withCommonOptions } from "../context.ts";

/** `trellis debug prompt [PROMPT] [--json]`: the model-visible input of the first request, no model call. */
export function registerDebugCommand(program: Command, ctx: CliContext): void {
  const debug = program.command("debug").description("inspect what Trellis would send");
  withCommonOptions(
    debug.command("prompt")
      .description("print the exact instructions, tool declarations and context of the first request")
      .argument("[prompt]", "the user prompt to include", ""),
  )
    .option("--json", "print the request as JSON")
    .action(async (prompt: string, options) => {
      const loaded = await ctx.loadConfig(options);
      const session = await Session.open({
        platform: ctx.platform,
        loaded,
        events: discardEvents,
        approver: noTtyApprover,
        preview: true,
        model: { stream: () => (async function* () {})() },
      });
      const request = await session.previewRequest(prompt);
      await session.close();
      if (options.json) {
        await ctx.out(JSON.stringify(request, null, 2) + "\n");
        return;
      }
      const lines = [`# model: ${request.model}`, "", "## instructions", request.instructions, ""];
      lines.push(`## tools (${request.tools.length})`);
      for (const tool of request.tools) lines.push(`- ${tool.name}: ${tool.description.split("\n")[0]}`);
      lines.push("", `## input (${request.input.length} items)`);
      for (const item of request.input) {
        if (item.type === "message") lines.push(`[${item.role}]`, item.content, "");
        else lines.push(`[${item.type}] ${JSON.stringify(item)}`, "");
      }
      await ctx.out(lines.join("\n") + "\n");
    });
}
