import type { Command } from "commander";
import { serveAcpAgent } from "../../app/mod.ts";
import { terminalText } from "../../shared/mod.ts";
import { type CliContext, type CommonOptions, withCommonOptions } from "../context.ts";
import { VERSION } from "../version.ts";

/**
 * `trellis acp`: Trellis as an Agent Client Protocol agent over stdio (#25 item 1), for Zed,
 * JetBrains and other ACP clients. `-c`/`-p` apply to every session; each session's cwd is the
 * client's. stdout carries only JSON-RPC frames, so everything this command says goes to stderr.
 */
export function registerAcpCommand(program: Command, ctx: CliContext): void {
  withCommonOptions(
    program.command("acp")
      .description("serve Trellis as an Agent Client Protocol agent over stdio (Zed, JetBrains, acpx)"),
  ).action((options: CommonOptions) => runAcp(ctx, options));
}

async function runAcp(ctx: CliContext, options: CommonOptions): Promise<void> {
  const shutdown = new AbortController();
  const removers = [
    ctx.platform.onSignal("SIGINT", () => shutdown.abort()),
    ctx.platform.onSignal("SIGTERM", () => shutdown.abort()),
  ];
  try {
    await serveAcpAgent({
      platform: ctx.platform,
      version: VERSION,
      loadConfig: (cwd) =>
        ctx.loadConfig({ config: options.config ?? [], profile: options.profile, cd: cwd }),
      shutdown: shutdown.signal,
      log: (line) => ctx.err(terminalText(line, { lineBreaks: "keep" })),
    });
  } finally {
    for (const remove of removers) remove();
  }
}
