import type { LoadedConfig } from "../../config/mod.ts";
import { type ServedToolsInfo, serveToolsOverHttp, serveToolsOverStdio } from "../../mcp/mod.ts";
import { type Platform, processStdio } from "../../platform/mod.ts";
import { type CallConfig, ThreadRegistry } from "./thread_registry.ts";
import { trellisTools } from "./trellis_tools.ts";

export interface McpServeOptions {
  platform: Platform;
  version: string;
  /** The server's working directory (`--cd`, else the process's). */
  cwd: string;
  /** Config for one session: the server's `-c`/`-p` flags under the call's settings. */
  loadConfig(call: CallConfig): Promise<LoadedConfig>;
  /** Streamable HTTP on 127.0.0.1:port (0 picks a free port) instead of stdio. */
  http?: { port: number };
  /** Aborted to stop serving (SIGINT, SIGTERM). */
  shutdown: AbortSignal;
  /** Diagnostics, for stderr: stdout belongs to the protocol. */
  log(line: string): void;
  /** Told the endpoint once the HTTP server listens. */
  onListening?(url: string): void;
}

const INSTRUCTIONS =
  "Run Trellis agent turns. `trellis` starts a thread with a prompt and returns the final " +
  "message and a threadId; `trellis-reply` continues that thread. Approvals are asked as elicitations.";

/**
 * `trellis mcp-server`: serves `trellis` and `trellis-reply` over stdio (until the client closes
 * the pipe or a signal) or Streamable HTTP on the loopback interface (until a signal). On the way
 * out every running turn is aborted, lets its calls record aborted outputs, and every thread's
 * Session closes (transcripts, hooks, MCP servers), so the process ends cleanly.
 */
export async function serveMcp(options: McpServeOptions): Promise<void> {
  const threads = new ThreadRegistry({
    platform: options.platform,
    cwd: options.cwd,
    loadConfig: options.loadConfig,
    log: options.log,
  });
  const tools = trellisTools({ platform: options.platform, cwd: options.cwd, threads });
  const info: ServedToolsInfo = {
    name: "trellis",
    version: options.version,
    instructions: INSTRUCTIONS,
    onError: (message) => options.log(`${message}\n`),
  };
  const stopped = new Promise<void>((resolve) => {
    if (options.shutdown.aborted) resolve();
    options.shutdown.addEventListener("abort", () => resolve(), { once: true });
  });
  try {
    if (options.http) {
      const served = await serveToolsOverHttp(info, tools, {
        platform: options.platform,
        port: options.http.port,
      });
      options.onListening?.(served.url);
      await stopped;
      await served.close();
    } else {
      const connection = await serveToolsOverStdio(info, tools, processStdio());
      await Promise.race([connection.closed, stopped]);
      await connection.close();
    }
  } finally {
    await threads.closeAll();
  }
}
