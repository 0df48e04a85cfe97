import {
  type EventSink,
  memo,
  type ToolDefinition,
  type ToolResult,
  type ToolRunContext,
  TrellisError,
  z,
} from "../shared/mod.ts";
import { truncateHeadTail } from "./call_result.ts";
import type { ConnectionManager } from "./connection_manager.ts";

type Kind = "resources" | "templates";
const METHOD = { resources: "resources/list", templates: "resources/templates/list" } as const;
const KEY = { resources: "resources", templates: "resourceTemplates" } as const;

const listArgs = memo(() =>
  z.object({ server: z.optional(z.string()), cursor: z.optional(z.string()) })
    .check(z.refine((a) => a.cursor === undefined || (a.server ?? "").trim() !== "", {
      message: "cursor can only be used when a server is specified",
    }))
);
const nonEmpty = (field: string) =>
  z.string({ error: `${field} must be a non-empty string` }).check(
    z.trim(),
    z.minLength(1, `${field} must be a non-empty string`),
  );
const readArgs = memo(() => z.object({ server: nonEmpty("server"), uri: nonEmpty("uri") }));

async function fetchPage(manager: ConnectionManager, server: string, kind: Kind, cursor?: string) {
  const managed = manager.servers.get(server);
  if (!managed) throw new TrellisError("mcp_config", `unknown MCP server '${server}'`, { server });
  const client = await managed.connection.ready();
  const options = { timeout: managed.registration.config.toolTimeoutMs };
  const params = cursor ? { cursor } : undefined;
  const page = kind === "resources"
    ? await client.listResources(params, options)
    : await client.listResourceTemplates(params, options);
  const items = (kind === "resources" ? page.resources : page.resourceTemplates) as Record<string, unknown>[];
  return {
    items: items.map((item) => ({ server, ...item })),
    nextCursor: page.nextCursor as string | undefined,
  };
}

/** Every page of one server; a cursor the server already returned aborts the listing (MCP-9). */
export async function listAllPages(manager: ConnectionManager, server: string, kind: Kind) {
  const items: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await fetchPage(manager, server, kind, cursor);
    items.push(...page.items);
    if (page.nextCursor !== undefined && seen.has(page.nextCursor)) {
      throw new TrellisError("mcp_protocol", `${METHOD[kind]} returned duplicate cursor`, { server });
    }
    cursor = page.nextCursor;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return items;
}

/**
 * Every page of every server that offers resources, concurrently, sorted by server; a server whose
 * listing fails is left out and named in `failures`.
 */
export async function listEveryServer(
  manager: ConnectionManager,
  kind: Kind,
): Promise<{ items: Record<string, unknown>[]; failures: { server: string; error: string }[] }> {
  // Servers that do not offer resources are not part of the aggregate (no warning for them).
  const servers = [...manager.servers.values()].filter(({ connection }) =>
    connection.client?.getServerCapabilities()?.resources !== undefined
  ).map((s) => s.registration.config.name).sort();
  const results = await Promise.allSettled(servers.map((s) => listAllPages(manager, s, kind)));
  const failures: { server: string; error: string }[] = [];
  const items = results.flatMap((r, i) => {
    if (r.status === "fulfilled") return r.value;
    failures.push({ server: servers[i], error: (r.reason as Error).message });
    return [];
  });
  return { items, failures };
}

/** All servers concurrently, sorted by name; a failing server is left out with a warning. */
export async function listAggregated(manager: ConnectionManager, kind: Kind, events: EventSink) {
  const { items, failures } = await listEveryServer(manager, kind);
  for (const f of failures) {
    events({ type: "warning", message: `MCP server '${f.server}': ${f.error}`, subject: f.server });
  }
  return items;
}

export async function listResourcesOutput(
  manager: ConnectionManager,
  kind: Kind,
  args: { server?: string; cursor?: string },
  events: EventSink,
): Promise<Record<string, unknown>> {
  if (!args.server) return { [KEY[kind]]: await listAggregated(manager, kind, events) };
  const page = await fetchPage(manager, args.server, kind, args.cursor);
  return {
    server: args.server,
    [KEY[kind]]: page.items,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}

export async function readResourceOutput(manager: ConnectionManager, server: string, uri: string) {
  const managed = manager.servers.get(server);
  if (!managed) throw new TrellisError("mcp_config", `unknown MCP server '${server}'`, { server });
  const client = await managed.connection.ready();
  const result = await client.readResource({ uri }, { timeout: managed.registration.config.toolTimeoutMs });
  return { server, uri, ...result };
}

async function withEvents(
  ctx: ToolRunContext,
  server: string,
  operation: string,
  budgetBytes: number,
  work: () => Promise<unknown>,
): Promise<ToolResult> {
  const started = Date.now();
  ctx.emit({ type: "mcp.resource_operation", phase: "begin", server, operation });
  const end = (error?: string) =>
    ctx.emit({
      type: "mcp.resource_operation",
      phase: "end",
      server,
      operation,
      duration_ms: Date.now() - started,
      ...(error ? { error } : {}),
    });
  try {
    const output = JSON.stringify(await work());
    end();
    return { output: truncateHeadTail(output, budgetBytes), status: "success" };
  } catch (error) {
    const message = `${operation} failed: ${(error as Error).message}`;
    end(message);
    return { output: message, status: "error" };
  }
}

function parseWith<T>(schema: z.core.$ZodType<T>, raw: unknown): T {
  const value = typeof raw === "string" ? (raw.trim() ? JSON.parse(raw) : {}) : raw ?? {};
  const parsed = z.safeParse(schema, value);
  if (!parsed.success) {
    throw new TrellisError("tool_arguments", parsed.error.issues[0].message, {
      field: parsed.error.issues[0].path.join("."),
    });
  }
  return parsed.data;
}

const LIST_PARAMS = {
  type: "object",
  properties: {
    server: { type: "string", description: "MCP server name; omit to list every server" },
    cursor: { type: "string", description: "nextCursor from a previous call (requires server)" },
  },
  additionalProperties: false,
};

/** MCP-14's three resource tools, bound to one manager. */
export function resourceToolDefinitions(manager: ConnectionManager, budgetBytes: number): ToolDefinition[] {
  const base = {
    hookAliases: [],
    parallel: true,
    source: { kind: "mcp_resource" as const },
    approval: () => ({ kind: "none" as const }),
  };
  const list = (name: string, kind: Kind, what: string): ToolDefinition => ({
    ...base,
    name,
    hookName: name,
    description: `Lists ${what} exposed by MCP servers. Without server, all servers are listed.`,
    parameters: LIST_PARAMS,
    parseArguments: (raw) => parseWith(listArgs(), raw),
    run: (args, ctx) => {
      const a = args as z.infer<ReturnType<typeof listArgs>>;
      return withEvents(
        ctx,
        a.server ?? "*",
        METHOD[kind],
        budgetBytes,
        () => listResourcesOutput(manager, kind, a, ctx.emit),
      );
    },
  });
  return [
    list("list_mcp_resources", "resources", "resources"),
    list("list_mcp_resource_templates", "templates", "resource templates (the model builds final URIs)"),
    {
      ...base,
      name: "read_mcp_resource",
      hookName: "read_mcp_resource",
      description: "Reads one resource from an MCP server by server name and URI.",
      parameters: {
        type: "object",
        properties: { server: { type: "string" }, uri: { type: "string" } },
        required: ["server", "uri"],
        additionalProperties: false,
      },
      parseArguments: (raw) => parseWith(readArgs(), raw),
      run: (args, ctx) => {
        const a = args as z.infer<ReturnType<typeof readArgs>>;
        return withEvents(
          ctx,
          a.server,
          "resources/read",
          budgetBytes,
          () => readResourceOutput(manager, a.server, a.uri),
        );
      },
    },
  ];
}
