import type { Readable, Writable } from "node:stream";
import { loadServerSdk } from "./_server_sdk.ts";
import { buildToolServer, type ServedTool, type ServedToolsInfo } from "./tool_server.ts";

export interface ServedConnection {
  /** Resolves once the connection is closed (the client went away, or `close()`). */
  closed: Promise<void>;
  /** Closes the connection: every call still running sees its signal aborted. */
  close(): Promise<void>;
}

/**
 * Serves `tools` to one client over stdin/stdout with the SDK's StdioServerTransport: stdout carries
 * only JSON-RPC frames. The transport does not watch for the end of its input, so this does: a
 * client that closes the pipe (or dies) closes the connection, which aborts the calls in flight.
 */
export async function serveToolsOverStdio(
  info: ServedToolsInfo,
  tools: ServedTool[],
  stdio: { stdin: Readable; stdout: Writable },
): Promise<ServedConnection> {
  const sdk = await loadServerSdk();
  const server = buildToolServer(sdk, info, tools);
  const transport = new sdk.StdioServerTransport(stdio.stdin, stdio.stdout);
  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= server.close().catch((error) => info.onError(`MCP server: ${error.message}`));
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve; // kept by the SDK when it installs its own handler (connect)
  });
  const onEnd = () => void close();
  stdio.stdin.once("end", onEnd);
  stdio.stdin.once("close", onEnd);
  // A client that vanished makes writes fail (EPIPE): that too ends the connection.
  stdio.stdout.once("error", onEnd);
  await server.connect(transport);
  void closed.then(() => {
    stdio.stdin.off("end", onEnd);
    stdio.stdin.off("close", onEnd);
    stdio.stdout.off("error", onEnd);
  });
  return { closed, close };
}
