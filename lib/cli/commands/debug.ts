import type { Command } from "commander";
import { noTtyApprover, type Session, sessionContextLedger, type Workspace } from "../../app/mod.ts";
import { terminalText, type TrellisEventBody } from "../../shared/mod.ts";
import { type CliContext, withCommonOptions } from "../context.ts";
import { contextLedgerLines } from "../context_ledger_table.ts";

/**
 * What a preview must still tell: a server that failed to start or tools withheld by pinning would
 * otherwise read as a silent 0-token row (a session shows the same as warnings).
 */
function previewWarnings(): { sink: (event: TrellisEventBody) => void; warnings: string[] } {
  const warnings: string[] = [];
  const sink = (event: TrellisEventBody) => {
    if (event.type === "warning") warnings.push(event.message);
    else if (event.type === "mcp.server_status" && event.status === "failed") {
      warnings.push(
        `MCP server '${event.server}' failed to start, its tools are not in this request: ${
          event.error ?? "unknown error"
        }`,
      );
    }
  };
  return { sink, warnings };
}

/** A session that builds requests but calls no model, runs no hook and records nothing. */
function previewSession(
  ws: Workspace,
  events: (event: TrellisEventBody) => void,
  resume?: string,
  countWithProvider = false,
): Promise<Session> {
  return ws.openSession({
    events,
    approver: noTtyApprover,
    preview: true,
    model: { stream: () => (async function* () {})() },
    countWithProvider,
    ...(resume ? { resume } : {}),
  });
}

/**
 * `trellis debug prompt [PROMPT] [--json]`: the model-visible input of the first request, no model
 * call, plus where its project instructions (AGENTS.md, CLAUDE.md) came from. `trellis debug context
 * [PROMPT] [--json]`: the same request's tokens by source (#17 item 3).
 */
export function registerDebugCommand(program: Command, ctx: CliContext): void {
  const debug = program.command("debug").description("inspect what Trellis would send");
  withCommonOptions(
    debug.command("prompt")
      .description("print the exact instructions, tool declarations and context of the first request")
      .argument("[prompt]", "the user prompt to include", ""),
  )
    .option("--json", "print the request as JSON")
    .action(async (prompt: string, options) => {
      const preview = previewWarnings();
      const session = await previewSession(await ctx.workspace(options), preview.sink);
      let request, instructions;
      // Which family's tools the request declares, and why (`tool_set`, #23 item 4).
      const toolSet = session.toolSetChoice();
      try {
        request = await session.previewRequest(prompt);
        instructions = await session.projectInstructions();
      } finally {
        await session.close(); // the MCP servers it started stop whatever happened
      }
      // stdout stays the request alone (JSON or text); what changed it goes to stderr.
      for (const w of preview.warnings) ctx.err(`warning: ${terminalText(w)}\n`);
      // Where the project instructions in `input` came from: one entry per file, in the order sent.
      const sources = instructions.files.map((f) => ({
        path: f.path,
        family: f.family,
        scope: f.scope,
        ...(f.importedFrom ? { importedFrom: f.importedFrom } : {}),
        bytes: f.bytes,
        truncated: f.truncated,
      }));
      if (options.json) {
        const projectInstructions = { sources, warnings: instructions.warnings };
        const chosen = { name: toolSet.face, reason: toolSet.reason };
        await ctx.out(JSON.stringify({ ...request, projectInstructions, toolSet: chosen }, null, 2) + "\n");
        return;
      }
      const lines = [`# model: ${request.model}`, "", "## instructions", request.instructions, ""];
      lines.push(`## project instructions (${sources.length} files)`);
      for (const s of sources) {
        const from = s.importedFrom ? `, imported by ${s.importedFrom}` : "";
        lines.push(
          `- ${s.path} (${s.family}, ${s.scope}, ${s.bytes} bytes${s.truncated ? ", truncated" : ""}${from})`,
        );
      }
      for (const w of instructions.warnings) lines.push(`warning: ${w}`);
      lines.push("");
      lines.push(`## tool set: ${toolSet.face} (${toolSet.reason})`, "");
      lines.push(`## tools (${request.tools.length})`);
      for (const tool of request.tools) lines.push(`- ${tool.name}: ${tool.description.split("\n")[0]}`);
      lines.push("", `## input (${request.input.length} items)`);
      for (const item of request.input) {
        if (item.type === "message") lines.push(`[${item.role}]`, item.content, "");
        else lines.push(`[${item.type}] ${JSON.stringify(item)}`, "");
      }
      await ctx.out(lines.join("\n") + "\n");
    });

  withCommonOptions(
    debug.command("context")
      .description(
        "count the tokens of every part of the next request, by source, against the context window",
      )
      .argument("[prompt]", "the user prompt to include ($skill mentions inject their bodies)", ""),
  )
    .option("--json", "print the ledger as JSON")
    .option("--resume <id>", "count the history of this recorded session")
    .option("--last", "count the history of the most recent session")
    .action(async (prompt: string, options) => {
      const preview = previewWarnings();
      const session = await previewSession(
        await ctx.workspace(options),
        preview.sink,
        options.last ? "--last" : options.resume,
        true,
      );
      try {
        const ledger = await sessionContextLedger(session, { prompt, preview: true });
        ledger.warnings.push(...preview.warnings);
        if (options.json) return void await ctx.out(JSON.stringify(ledger, null, 2) + "\n");
        await ctx.out(contextLedgerLines(ledger).join("\n") + "\n");
      } finally {
        await session.close();
      }
    });
}
