import { type LoadedConfig, type McpCommandRuntime, visibleName } from "../../app/mod.ts";
import { TrellisError, type TrellisEventBody } from "../../shared/mod.ts";
import type { CliContext } from "../context.ts";

/**
 * Starts the selected servers (all, or one) as a session would (lib/app's command runtime:
 * sampling, elicitation, roots, pins), runs `work`, shuts down.
 */
export async function withRuntime<T>(
  ctx: CliContext,
  options: Record<string, unknown>,
  server: string | undefined,
  work: (mcp: McpCommandRuntime, loaded: LoadedConfig) => Promise<T>,
  settings: { recordPins?: boolean } = {},
): Promise<T> {
  const ws = await ctx.workspace(options);
  const loaded = ws.loaded;
  const mcp = await ws.openMcp({
    events: (e) => printEvent(ctx, e),
    server,
    interactive: ctx.platform.isTerminal("stdin"),
    write: (text) => ctx.err(text),
    recordPins: settings.recordPins,
  });
  try {
    // As a session's first step would: pins a never-seen server's tools, warns about changed ones.
    if (settings.recordPins) mcp.runtime.captureStep().release();
    return await work(mcp, loaded);
  } catch (error) {
    if (error instanceof TrellisError) throw error;
    // A server's protocol error is the server's problem, not a Trellis bug: one line, no stack.
    throw new TrellisError("mcp_protocol", (error as Error).message, { server });
  } finally {
    await mcp.runtime.shutdown();
  }
}

/** One line on stderr for what a running server reports (status, progress, sampling). */
export function printEvent(ctx: CliContext, e: TrellisEventBody): void {
  // "cancelled" is only the command ending while a server was still starting: not news here.
  if (e.type === "mcp.server_status" && e.status !== "starting" && e.status !== "cancelled") {
    const took = e.duration_ms !== undefined ? ` in ${e.duration_ms} ms` : "";
    ctx.err(`mcp: ${e.server} ${e.status}${took}${e.error ? `: ${e.error}` : ""}\n`);
  } else if (e.type === "warning") ctx.err(`warning: ${e.message}\n`);
  else if (e.type === "notice") ctx.err(`note: ${e.message}\n`);
  else if (e.type === "mcp.tool_progress") {
    ctx.err(
      `mcp: ${e.server}/${e.tool} progress ${e.progress}${e.total ? `/${e.total}` : ""}${
        e.message ? ` ${visibleName(e.message)}` : ""
      }\n`,
    );
  } else if (e.type === "mcp.sampling") {
    const detail = e.decision === "allowed" ? `${e.tokens ?? 0} tokens` : e.reason ?? "";
    ctx.err(`mcp: ${e.server} sampling ${e.decision}${detail ? ` (${detail})` : ""}\n`);
  }
}
