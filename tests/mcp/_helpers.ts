import { platform } from "../../lib/platform/mod.ts";
import {
  createMcpRuntime,
  type ElicitationResponder,
  type McpRuntime,
  type McpRuntimeOptions,
  type McpServerConfig,
  noUiElicitationResponder,
  resolveCatalog,
  serverConfigFromTable,
} from "../../lib/mcp/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";

export const EVERYTHING =
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)
    .pathname;
export const FILESYSTEM =
  new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url)
    .pathname;

export function fixture(name: string): string {
  return new URL(`../../fixtures/mcp/${name}`, import.meta.url).pathname;
}

/** A stdio server config from a Codex-shape table. */
export function stdio(name: string, args: string[], extra: Record<string, unknown> = {}): McpServerConfig {
  return serverConfigFromTable(name, { command: "node", args, ...extra } as never);
}

export async function startRuntime(
  servers: McpServerConfig[],
  options: {
    elicitation?: ElicitationResponder;
    approvalPolicy?: string;
    budget?: number;
    extra?: Partial<McpRuntimeOptions>;
  } = {},
): Promise<{ runtime: McpRuntime; events: TrellisEventBody[]; home: string }> {
  const home = await platform.fs.makeTempDir("trellis-mcp-");
  const events: TrellisEventBody[] = [];
  const runtime = createMcpRuntime({
    platform,
    catalog: resolveCatalog(servers.map((config) => ({ tier: "config", source: "test", config }))),
    events: (e) => events.push(e),
    cwd: home,
    home,
    elicitation: options.elicitation ?? noUiElicitationResponder,
    approvalPolicy: options.approvalPolicy ?? "on-request",
    outputBudgetBytes: options.budget,
    ...options.extra,
  });
  runtime.start();
  return { runtime, events, home };
}

export function runContext(callId = "call-1") {
  const events: TrellisEventBody[] = [];
  return {
    events,
    ctx: {
      callId,
      cwd: "/",
      signal: new AbortController().signal,
      emit: (e: TrellisEventBody) => events.push(e),
      escalated: false,
    },
  };
}
