import type { Command } from "commander";
import { serveMcp } from "../../app/mod.ts";
import { terminalText, UsageError } from "../../shared/mod.ts";
import { type CliContext, type CommonOptions, withCommonOptions } from "../context.ts";
import { VERSION } from "../version.ts";

interface McpServerOptions extends CommonOptions {
  http?: string;
  tokenFile?: string;
  /** Commander's `--no-auth`: false when given. */
  auth: boolean;
  allowConfigOverrides?: boolean;
}

/**
 * `trellis mcp-server [--http PORT]`: Trellis as an MCP server (#17 item 4), as `codex mcp-server`.
 * `-c`/`-p`/`-C` set what every thread starts from; a call's own settings may only tighten them
 * (#20 item 3), and over HTTP every request needs the bearer token. stdout carries only JSON-RPC
 * frames (stdio), so everything this command says goes to stderr.
 */
export function registerMcpServerCommand(program: Command, ctx: CliContext): void {
  withCommonOptions(
    program.command("mcp-server")
      .description("serve Trellis as an MCP server (tools trellis, trellis-reply) over stdio, or HTTP")
      .option(
        "--http <port>",
        "serve Streamable HTTP on 127.0.0.1:<port>/mcp instead of stdio (0: a free port)",
      )
      .option(
        "--token-file <file>",
        "with --http: the bearer token's file (used if only its owner can read it; created 0600 if missing)",
      )
      .option("--no-auth", "with --http: ask for no bearer token (any local user can then run turns)")
      .option(
        "--allow-config-overrides",
        "let a call's config set MCP servers, hooks, plugins, model providers and other operator-only keys",
      ),
  ).action((options: McpServerOptions) => runMcpServer(ctx, options));
}

async function runMcpServer(ctx: CliContext, options: McpServerOptions): Promise<void> {
  const port = options.http === undefined ? undefined : parsePort(options.http);
  const noAuth = options.auth === false;
  if (port === undefined && (noAuth || options.tokenFile !== undefined)) {
    throw new UsageError(
      `Cannot use ${
        noAuth ? "--no-auth" : "--token-file"
      } without --http: over stdio the client that starts the server is its only client`,
      { field: noAuth ? "--no-auth" : "--token-file" },
    );
  }
  if (noAuth && options.tokenFile !== undefined) {
    throw new UsageError("Cannot use --no-auth with --token-file: choose one", { field: "--no-auth" });
  }
  // Its own --cd, else one before the command word, else the process's; a directory, checked.
  const cwd = await ctx.cwd(options);
  const shutdown = new AbortController();
  const removers = [
    ctx.platform.onSignal("SIGINT", () => shutdown.abort()),
    ctx.platform.onSignal("SIGTERM", () => shutdown.abort()),
  ];
  try {
    await serveMcp({
      platform: ctx.platform,
      version: VERSION,
      cwd,
      loadConfig: (call) =>
        ctx.loadConfig({
          config: [...(options.config ?? []), ...call.overrides],
          profile: call.profile ?? options.profile,
          cd: call.cwd,
          ...(call.quiet ? { quietDiagnostics: true } : {}),
        }),
      ...(port !== undefined
        ? {
          http: {
            port,
            ...(options.tokenFile !== undefined ? { tokenFile: options.tokenFile } : {}),
            ...(noAuth ? { noAuth } : {}),
          },
        }
        : {}),
      allowConfigOverrides: options.allowConfigOverrides === true,
      shutdown: shutdown.signal,
      log: (line) => ctx.err(terminalText(line, { lineBreaks: "keep" })),
      onListening: (url) => ctx.err(`trellis mcp-server: listening on ${url}\n`),
    });
  } finally {
    for (const remove of removers) remove();
  }
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(
      `Cannot use --http "${text}": expected a port number (0–65535; 0 picks a free one)`,
      {
        field: "--http",
      },
    );
  }
  return port;
}
