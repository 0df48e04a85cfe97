import { createSdkClient, createTransport, type TransportContext } from "./client_factory.ts";
import type { Client, Transport } from "./_sdk.ts";
import { rootsFromPaths } from "./roots.ts";
import { PlatformStdioTransport } from "./stdio_transport.ts";
import { type Denial, findDenials } from "./sandbox_denials.ts";
import type { McpSandbox, McpServerConfig } from "./server_config.ts";

export interface SandboxCheckOptions {
  /** The server with the profile to check (`sandbox` set). */
  server: McpServerConfig;
  /** Must carry `confine`: without it the server is refused, which the report says. */
  transport: TransportContext;
  /** Call this tool once after listing (`--call TOOL --args JSON`). */
  call?: { tool: string; args: Record<string, unknown> };
}

export interface SandboxCheckReport {
  server: string;
  profile: McpSandbox;
  started: boolean;
  /** Why it did not start, or why listing failed. */
  error?: string;
  /** Spawn + initialize + tools/list. */
  durationMs: number;
  tools: string[];
  call?: { tool: string; ok: boolean; output: string };
  denials: Denial[];
  /** Everything the server wrote to stderr (also in its log). */
  stderr: string;
}

/**
 * `trellis mcp sandbox-check NAME` (#17 item 2): starts one stdio server under its profile, as a
 * session would (same transport, same confinement), lists its tools, optionally calls one, and
 * reads what it was denied from its stderr and the call's output.
 */
export async function checkServerSandbox(options: SandboxCheckOptions): Promise<SandboxCheckReport> {
  const { server } = options;
  let stderr = "";
  const report: SandboxCheckReport = {
    server: server.name,
    profile: server.sandbox!,
    started: false,
    durationMs: 0,
    tools: [],
    denials: [],
    stderr: "",
  };
  const started = Date.now();
  let client: Client | undefined;
  let transport: Transport | undefined;
  try {
    client = await createSdkClient(server, {
      elicit: () => Promise.resolve({ action: "decline" }),
      warn: options.transport.warn,
      roots: () => rootsFromPaths([options.transport.cwd]),
      toolsChanged: () => {},
    });
    transport = await createTransport(server, {
      ...options.transport,
      onStderr: (_name, text) => void (stderr += text),
    });
    await client.connect(transport, { timeout: server.startupTimeoutMs });
    report.started = true;
    const listed = client.getServerCapabilities()?.tools ? (await client.listTools()).tools : [];
    report.tools = listed.map((t) => t.name);
    report.durationMs = Date.now() - started;
    if (options.call) report.call = await callOnce(client, options.call);
  } catch (error) {
    report.durationMs = Date.now() - started;
    report.error = (error as Error).message;
  } finally {
    await client?.close().catch(() => {});
  }
  // The process has ended: wait for the last of its stderr (bwrap's own complaints too), but not past
  // a moment for a descendant that still holds the pipe.
  if (transport instanceof PlatformStdioTransport) {
    let wait: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([transport.stderrClosed, new Promise((resolve) => wait = setTimeout(resolve, 1000))]);
    clearTimeout(wait);
  }
  report.stderr = stderr;
  const text = [stderr, report.call && !report.call.ok ? report.call.output : "", report.error ?? ""].join(
    "\n",
  );
  report.denials = findDenials(text, { networkOff: !report.profile.network });
  return report;
}

async function callOnce(
  client: Client,
  call: { tool: string; args: Record<string, unknown> },
): Promise<{ tool: string; ok: boolean; output: string }> {
  try {
    const result = await client.callTool({ name: call.tool, arguments: call.args });
    const content = (result.content ?? []) as { type: string; text?: string }[];
    const output = content.map((part) => part.type === "text" ? part.text ?? "" : `(${part.type})`).join(
      "\n",
    );
    return { tool: call.tool, ok: !result.isError, output };
  } catch (error) {
    return { tool: call.tool, ok: false, output: (error as Error).message };
  }
}
