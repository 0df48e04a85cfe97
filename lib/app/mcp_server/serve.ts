import { type LoadedConfig, resolvePaths } from "../../config/mod.ts";
import { type ServedToolsInfo, serveToolsOverHttp, serveToolsOverStdio } from "../../mcp/mod.ts";
import { type Platform, processStdio } from "../../platform/mod.ts";
import { type BearerToken, prepareBearerToken } from "./bearer_token.ts";
import { type CallConfig, ThreadRegistry } from "./thread_registry.ts";
import { trellisTools } from "./trellis_tools.ts";

export interface McpServeOptions {
  platform: Platform;
  version: string;
  /** The server's working directory (`--cd`, else the process's). */
  cwd: string;
  /** Config for one session: the server's `-c`/`-p` flags under the call's settings. */
  loadConfig(call: CallConfig): Promise<LoadedConfig>;
  /**
   * Streamable HTTP on 127.0.0.1:port (0 picks a free port) instead of stdio, with a bearer token
   * (fresh under `$TRELLIS_HOME/run`, or `tokenFile`) unless `noAuth`.
   */
  http?: { port: number; tokenFile?: string; noAuth?: boolean };
  /** `--allow-config-overrides`: a call's `config` may set MCP servers, hooks, providers … */
  allowConfigOverrides?: boolean;
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
  const { platform } = options;
  const workspace = await platform.fs.realPath(options.cwd);
  const threads = new ThreadRegistry({
    platform,
    cwd: options.cwd,
    workspace,
    loadConfig: options.loadConfig,
    log: options.log,
  });
  const limits = { workspace, allowConfigOverrides: options.allowConfigOverrides ?? false };
  const tools = trellisTools({ platform, cwd: options.cwd, threads, limits });
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
      const token = await bearerToken(options, options.http);
      try {
        const served = await serveToolsOverHttp(info, tools, {
          platform,
          port: options.http.port,
          bearerToken: token?.token ?? null,
        });
        if (token?.warning) options.log(token.warning);
        if (token) {
          options.log(
            `trellis mcp-server: bearer token ${token.created ? "written to" : "read from"} ${token.file} ` +
              `(clients send "Authorization: Bearer <token>")\n`,
          );
        }
        options.onListening?.(served.url);
        await stopped;
        await served.close();
      } finally {
        await token?.dispose();
      }
    } else {
      const connection = await serveToolsOverStdio(info, tools, processStdio());
      await Promise.race([connection.closed, stopped]);
      await connection.close();
    }
  } finally {
    await threads.closeAll();
  }
}

/** The token of this start; null (with a warning) under `--no-auth`. */
async function bearerToken(
  options: McpServeOptions,
  http: NonNullable<McpServeOptions["http"]>,
): Promise<BearerToken | null> {
  if (http.noAuth) {
    options.log(
      "warning: mcp-server --http --no-auth: no bearer token is asked for; any local user or process " +
        "that can reach 127.0.0.1 (a sandboxed command with the network on too) can run turns as this user\n",
    );
    return null;
  }
  const { platform } = options;
  const home = resolvePaths(platform.fs, { cwd: options.cwd, env: platform.env, markers: [] }).home;
  return await prepareBearerToken(platform, {
    home,
    ...(http.tokenFile !== undefined ? { tokenFile: http.tokenFile } : {}),
  });
}
