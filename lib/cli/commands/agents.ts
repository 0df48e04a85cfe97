import type { Command } from "commander";
import { agentDetail, agentRow } from "../../app/mod.ts";
import { closestWord, type Diagnostic, UsageError } from "../../shared/mod.ts";
import { type CliContext, type CommonOptions, withCommonOptions } from "../context.ts";

/** `trellis agents list [--json]`, `show NAME [--json]` (#22 item 1). */
export function registerAgentsCommand(program: Command, ctx: CliContext): void {
  const agents = program.command("agents").description("inspect subagent definitions (agents/*.md)");
  withCommonOptions(agents.command("list").description("list the agents a session can launch"))
    .option("--json", "print JSON")
    .action((options) => listAgents(ctx, options));
  withCommonOptions(agents.command("show").description("print an agent's definition, tools and model"))
    .argument("<name>", "agent name (a plugin's: plugin:agent)")
    .option("--json", "print JSON")
    .action((name: string, options) => showAgent(ctx, name, options));
}

async function listAgents(ctx: CliContext, options: CommonOptions & { json?: boolean }) {
  const loaded = await (await ctx.workspace(options)).agents();
  const rows = loaded.agents.map(agentRow);
  if (options.json) {
    await ctx.out(JSON.stringify({ agents: rows, warnings: loaded.diagnostics }, null, 2) + "\n");
    return;
  }
  const lines: string[] = [];
  for (const r of rows) {
    lines.push(
      `${r.name} (${[`from ${r.origin}`, r.plugin && `plugin ${r.plugin}`].filter(Boolean).join(", ")})`,
    );
    lines.push(`    ${r.description.length > 100 ? `${r.description.slice(0, 99)}…` : r.description}`);
    if (r.path) lines.push(`    ${r.path}`);
  }
  lines.push(...diagnosticLines(loaded.diagnostics));
  await ctx.out(lines.join("\n") + "\n");
}

async function showAgent(ctx: CliContext, name: string, options: CommonOptions & { json?: boolean }) {
  const workspace = await ctx.workspace(options);
  const loaded = await workspace.agents();
  const found = loaded.agents.find((a) => a.name === name);
  if (!found) {
    const near = closestWord(name, loaded.agents.map((a) => a.name));
    const failed = loaded.diagnostics.find((d) => d.file?.endsWith(`/${name}.md`));
    throw new UsageError(
      `Cannot show agent "${name}": ${
        failed ? failed.message : `no agent with this name${near ? ` (did you mean "${near}"?)` : ""}`
      }`,
      { field: "name" },
    );
  }
  const detail = agentDetail(found, loaded, workspace.loaded.config);
  if (options.json) {
    await ctx.out(JSON.stringify(detail, null, 2) + "\n");
    return;
  }
  const lines = [
    `${detail.name} (from ${detail.origin}${detail.plugin ? `, plugin ${detail.plugin}` : ""})`,
    `description: ${detail.description}`,
    ...(detail.path ? [`path: ${detail.path}`] : []),
    `model: ${detail.model} (${detail.modelSetting})`,
    `tools: ${detail.tools.join(", ") || "none"}`,
    ...(detail.unmatchedTools.length > 0
      ? [
        `not built-in tools (MCP tools resolve in a session; others Trellis lacks): ${
          detail.unmatchedTools.join(", ")
        }`,
      ]
      : []),
    ...(detail.disallowedTools.length > 0 ? [`disallowed: ${detail.disallowedTools.join(", ")}`] : []),
    ...(detail.color ? [`color: ${detail.color}`] : []),
    ...(detail.maxTurns ? [`max turns: ${detail.maxTurns}`] : []),
    ...(detail.effort ? [`effort: ${detail.effort}`] : []),
    `permissions: ${detail.permissionMode ?? "default"} → approval policy ${detail.approvalPolicy}` +
    (detail.readOnly ? ", no file-writing tools" : "") +
    (detail.denyPrompts ? ", prompts denied" : "") +
    (detail.permissionNote ? ` (${detail.permissionNote})` : ""),
    ...(detail.skills.length > 0 ? [`skills (preloaded): ${detail.skills.join(", ")}`] : []),
    ...(detail.mcpServers.length > 0
      ? [`mcp servers: ${detail.mcpServers.map((s) => `${s.name} (${s.kind})`).join(", ")}`]
      : []),
    ...(detail.hookEvents.length > 0 ? [`hooks (while it runs): ${detail.hookEvents.join(", ")}`] : []),
    ...(detail.notApplied.length > 0 ? [`read but not applied yet: ${detail.notApplied.join(", ")}`] : []),
    "",
    detail.prompt,
  ];
  await ctx.out(lines.join("\n") + "\n");
}

function diagnosticLines(diagnostics: Diagnostic[]): string[] {
  if (diagnostics.length === 0) return [];
  return ["", `notes (${diagnostics.length}):`, ...diagnostics.map((d) => `  ${d.level}: ${d.message}`)];
}
