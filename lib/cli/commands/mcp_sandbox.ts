import type { Command } from "commander";
import { mcpSandboxCheck } from "../../app/mod.ts";
import type { McpSandbox } from "../../app/mod.ts";
import { UsageError } from "../../shared/mod.ts";
import { type CliContext, withCommonOptions } from "../context.ts";

const MODES = ["read-only", "workspace-write"];

/**
 * `trellis mcp sandbox-check NAME` (#17 item 2): start one stdio server under its sandbox profile
 * (or one given here), list its tools, optionally call one, and say what it was denied and what
 * would lift it. Exit 1 when it did not start, a call failed or anything was denied.
 */
export function registerMcpSandboxCommand(mcp: Command, ctx: CliContext): void {
  withCommonOptions(
    mcp.command("sandbox-check")
      .description("start a stdio server under its sandbox profile and report what it was denied")
      .argument("<name>"),
  )
    .option("--sandbox <mode>", "try this profile: read-only or workspace-write")
    .option("--network <on|off>", "try with the network on or off")
    .option("--writable <path>", "try with this directory writable (repeatable)", collect)
    .option("--call <tool>", "call this tool once after listing")
    .option("--args <json>", "arguments of --call as a JSON object", "{}")
    .option("--json", "print JSON")
    .action(async (name: string, options) => {
      const report = await mcpSandboxCheck({
        workspace: await ctx.workspace(options),
        server: name,
        profile: profileOptions(options),
        ...(options.call ? { call: { tool: String(options.call), args: jsonArgs(options.args) } } : {}),
        warn: (message) => ctx.err(`warning: ${message}\n`),
      });
      const { report: r, denials } = report;
      const failed = !r.started || (r.call !== undefined && !r.call.ok) || denials.length > 0 || !!r.error;
      if (failed) ctx.exitCode = 1;
      if (options.json) {
        return void await ctx.out(
          JSON.stringify({ ...r, denials, profile_source: report.profileSource }, null, 2) + "\n",
        );
      }
      const p = r.profile;
      const lines = [
        `MCP server "${r.server}": sandbox = "${p.mode}", sandbox_network = ${p.network}, sandbox_writable = ${
          JSON.stringify(p.writable)
        } (${
          report.profileSource === "default"
            ? "it has no profile: checked read-only"
            : `from the ${report.profileSource}`
        })`,
      ];
      if (r.started) {
        lines.push(
          `started in ${r.durationMs} ms; ${r.tools.length} tool${r.tools.length === 1 ? "" : "s"}: ${
            r.tools.join(", ") || "none"
          }`,
        );
      } else lines.push(`did not start: ${r.error ?? "unknown error"}`);
      if (r.started && r.error) lines.push(`error: ${r.error}`);
      if (r.call) {
        lines.push(`call ${r.call.tool}: ${r.call.ok ? "ok" : "failed"}`);
        for (const line of r.call.output.split("\n").slice(0, 10)) lines.push(`  ${line}`);
      }
      if (denials.length === 0) {
        lines.push(
          r.started
            ? "denied: nothing seen (its stderr and the call's output show no denial)"
            : "denied: nothing seen",
        );
      } else {
        lines.push(`denied (${denials.length}):`);
        for (const d of denials) {
          const what = d.kind === "file" ? `${d.code} ${d.path}` : `network (${d.code})`;
          lines.push(`  ${what}: ${d.line}`, `    fix: ${d.fix}`);
        }
      }
      await ctx.out(lines.join("\n") + "\n");
    });
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function profileOptions(options: Record<string, unknown>): Partial<McpSandbox> {
  const profile: Partial<McpSandbox> = {};
  if (options.sandbox !== undefined) {
    const mode = String(options.sandbox);
    if (!MODES.includes(mode)) {
      throw new UsageError(`Cannot use --sandbox "${mode}": expected read-only or workspace-write`, {
        field: "sandbox",
      });
    }
    profile.mode = mode as McpSandbox["mode"];
  }
  if (options.network !== undefined) {
    const value = String(options.network);
    if (value !== "on" && value !== "off") {
      throw new UsageError(`Cannot use --network "${value}": expected on or off`, { field: "network" });
    }
    profile.network = value === "on";
  }
  if (options.writable !== undefined) profile.writable = options.writable as string[];
  return profile;
}

function jsonArgs(text: unknown): Record<string, unknown> {
  let args: unknown;
  try {
    args = JSON.parse(String(text));
  } catch (error) {
    throw new UsageError(`Cannot parse --args "${text}": ${(error as Error).message}`, { field: "args" });
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new UsageError(`Cannot use --args "${text}": it must be a JSON object`, { field: "args" });
  }
  return args as Record<string, unknown>;
}
