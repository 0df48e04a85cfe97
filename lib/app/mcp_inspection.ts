import {
  authStatuses,
  type CatalogConflict,
  CredentialStore,
  type LastStartFailure,
  loginServer,
  type McpServerSummary,
  readLastStartFailure,
  summarizeServer,
} from "../mcp/mod.ts";
import { TrellisError, UsageError } from "../shared/mod.ts";
import type { Workspace } from "./workspace.ts";

/** A server whose config entry is invalid: shown failed, with the reason (never started). */
export interface FailedMcpServer {
  name: string;
  enabled: false;
  status: "failed";
  error: string;
  tier: string;
  source: string;
  origin: string;
}

/** Every configured MCP server of a workspace, without starting any (`trellis mcp list|get`). */
export interface McpServerListing {
  /** Enabled and disabled servers, by name, each with its OAuth status and how its last start failed. */
  servers: (McpServerSummary & { last_start_failure?: LastStartFailure })[];
  failed: FailedMcpServer[];
  /** Names declared by several sources, and which one won. */
  conflicts: readonly CatalogConflict[];
}

export async function listMcpServers(ws: Workspace): Promise<McpServerListing> {
  const { catalog } = await ws.mcpCatalog();
  const servers = [
    ...catalog.servers.map((r) => summarizeServer(r, true)),
    ...catalog.disabled.map((r) => summarizeServer(r, false)),
  ].sort((a, b) => a.name < b.name ? -1 : 1);
  const byName = new Map([...catalog.servers, ...catalog.disabled].map((r) => [r.config.name, r.config]));
  const store = CredentialStore.forHome(ws.platform.fs, ws.loaded.paths.home);
  const statuses = await authStatuses(servers.map((s) => byName.get(s.name)!), store);
  servers.forEach((s, i) => s.auth_status = statuses[i]);
  const failures = await Promise.all(
    servers.map((s) => readLastStartFailure(ws.platform.fs, ws.loaded.paths.home, s.name)),
  );
  const listed = servers.map((s, i) => failures[i] ? { ...s, last_start_failure: failures[i]! } : s);
  const failed = (catalog.failed ?? []).map((f) => ({
    name: f.name,
    enabled: false as const,
    status: "failed" as const,
    error: f.error,
    tier: "config",
    source: f.source,
    origin: f.origin ?? "trellis",
  }));
  return { servers: listed, failed, conflicts: catalog.conflicts };
}

/** `trellis mcp login NAME`: OAuth for a streamable HTTP server; tokens go to the credential store. */
export async function loginMcpServer(
  ws: Workspace,
  name: string,
  options: { scopes?: string[]; show(url: URL): void | Promise<void> },
): Promise<void> {
  const { catalog } = await ws.mcpCatalog();
  const server = catalog.servers.find((s) => s.config.name === name)?.config;
  if (!server) throw new UsageError(`No MCP server named '${name}' found.`, { server: name });
  await loginServer(server, {
    platform: ws.platform,
    home: ws.loaded.paths.home,
    scopes: options.scopes,
    show: options.show,
  }).catch((error) => {
    if (error instanceof TrellisError) throw error;
    throw new TrellisError(
      "mcp_protocol",
      `Cannot log in to MCP server "${name}": ${(error as Error).message}`,
      {
        server: name,
      },
    );
  });
}

/** `trellis mcp logout NAME`: forgets the server's tokens (a UsageError when there are none). */
export async function logoutMcpServer(ws: Workspace, name: string): Promise<void> {
  const removed = await CredentialStore.forHome(ws.platform.fs, ws.loaded.paths.home).remove(name);
  if (!removed) {
    throw new UsageError(`Cannot log out of MCP server "${name}": not logged in`, { server: name });
  }
}
