import type { Command } from "commander";
import { editMcpServer } from "../../app/mod.ts";
import { type CliContext, collect } from "../context.ts";

/**
 * `trellis mcp add|remove|enable|disable`: edits of `[mcp_servers.<name>]` in the user config
 * (`--scope user`, Codex's file) or in the project's `.trellis/config.toml` (`--scope project`),
 * made by lib/app's editMcpServer (locked, checked, atomic; the entry built by lib/mcp's transport
 * rules).
 */
export function registerMcpEditCommands(mcp: Command, ctx: CliContext): void {
  mcp.command("add").description(
    "add a stdio (-- CMD ARGS…) or HTTP (--url URL, or --transport http NAME URL) server to config.toml",
  )
    .argument("<name>").argument(
      "[command...]",
      "stdio: after --, the command and its arguments; http/sse: the URL",
    )
    .option("-t, --transport <stdio|http|sse>", "transport (default: http with --url, else stdio)")
    .option(
      "-s, --scope <user|project>",
      "user: $TRELLIS_HOME/config.toml; project: .trellis/config.toml",
      "user",
    )
    .option("-e, --env <KEY=VALUE>", "environment variable for a stdio server; repeatable", collect)
    .option("--url <url>", "streamable HTTP endpoint")
    .option("--bearer-token-env-var <VAR>", "environment variable holding the bearer token")
    .option("-H, --header <KEY=VALUE>", "HTTP header; repeatable", collect)
    .option("--force", "replace a server of the same name")
    .action(async (name: string, positional: string[], options) => {
      const { file: written } = await editMcpServer(ctx.platform, name, options.scope, {
        kind: "add",
        force: options.force === true,
        flags: {
          transport: options.transport,
          positional,
          url: options.url,
          env: options.env,
          header: options.header,
          bearerTokenEnvVar: options.bearerTokenEnvVar,
        },
      }, await ctx.cwd());
      await ctx.out(`Added MCP server '${name}' to ${written}\n`);
    });
  withScope(mcp.command("remove").description("remove a server from config.toml").argument("<name>"))
    .action(async (name: string, options) => {
      const { file: written } = await editMcpServer(
        ctx.platform,
        name,
        options.scope,
        { kind: "remove" },
        await ctx.cwd(),
      );
      await ctx.out(`Removed MCP server '${name}' from ${written}\n`);
    });
  for (const enabled of [true, false]) {
    withScope(
      mcp.command(enabled ? "enable" : "disable")
        .description(`${enabled ? "enable" : "disable"} a server in config.toml`).argument("<name>"),
    )
      .action(async (name: string, options) => {
        const kind = enabled ? "enable" : "disable";
        const done = await editMcpServer(ctx.platform, name, options.scope, { kind }, await ctx.cwd());
        const state = enabled ? "enabled" : "disabled";
        if (done.unchanged) {
          return void await ctx.out(`MCP server '${name}' (from ${done.definedIn}) is already ${state}\n`);
        }
        await ctx.out(
          done.definedIn
            ? `${enabled ? "Enabled" : "Disabled"} MCP server '${name}' (defined in ${done.definedIn}) for ` +
              `Trellis only, in ${done.file}\n`
            : `${enabled ? "Enabled" : "Disabled"} MCP server '${name}' in ${done.file}\n`,
        );
      });
  }
}

function withScope(command: Command): Command {
  return command.option("-s, --scope <user|project>", "which config.toml to edit", "user");
}
