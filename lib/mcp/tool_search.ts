import type { ToolDefinition, ToolResult } from "../shared/mod.ts";
import { TrellisError } from "../shared/mod.ts";

/** MCP-12 settings: `on` (config `tool_search = true`), `off`, or `auto` by context-window share. */
export interface ToolSearchOptions {
  mode: "on" | "off" | "auto";
  /** Model context window in tokens (`model_context_window`); auto never defers without it. */
  contextWindow?: number;
  /** The window is Trellis's assumption, not the model's stated one: a deferral says so once. */
  windowAssumed?: boolean;
  /** Share of the window MCP declarations may take before auto defers them (default 0.1). */
  share?: number;
}

export const DEFAULT_TOOL_SEARCH_SHARE = 0.1;
export const SEARCH_TOOLS_NAME = "search_tools";
const DEFAULT_LIMIT = 8;
const MAX_LIMIT = 25;

/** Rough token cost of declaring these tools to the model (~4 characters per token). */
export function declarationTokens(tools: readonly ToolDefinition[]): number {
  let chars = 0;
  for (const t of tools) {
    chars += JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }).length;
  }
  return Math.ceil(chars / 4);
}

/** Whether a step declares `search_tools` instead of the MCP tools themselves. */
export function shouldDeferTools(tools: readonly ToolDefinition[], options: ToolSearchOptions): boolean {
  if (tools.length === 0) return false;
  switch (options.mode) {
    case "on":
      return true;
    case "off":
      return false;
    case "auto":
      return options.contextWindow !== undefined &&
        declarationTokens(tools) > (options.share ?? DEFAULT_TOOL_SEARCH_SHARE) * options.contextWindow;
  }
}

/** What a deferral by an assumed window tells the user, once per runtime (#21 item 17). */
export function assumedWindowNotice(tools: readonly ToolDefinition[], options: ToolSearchOptions): string {
  const share = options.share ?? DEFAULT_TOOL_SEARCH_SHARE;
  return `MCP tools (${tools.length}, ~${declarationTokens(tools).toLocaleString("en-US")} tokens) exceed ` +
    `${Math.round(share * 100)}% of the assumed ${
      (options.contextWindow ?? 0).toLocaleString("en-US")
    }-token ` +
    "context window (model_context_window is not set and the model is not known), so they are found " +
    "through search_tools instead of declared; set model_context_window or tool_search to choose";
}

/** Ranks tools by how many query words their name and description contain; ties by name. */
export function searchTools(
  tools: readonly ToolDefinition[],
  query: string,
  limit: number,
): ToolDefinition[] {
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0);
  const scored = tools.map((tool) => {
    const name = tool.name.toLowerCase().replaceAll("_", " ");
    const text = `${name} ${tool.description.toLowerCase()}`;
    const score = words.reduce((sum, w) => sum + (name.includes(w) ? 3 : text.includes(w) ? 1 : 0), 0);
    return { tool, score };
  }).filter((s) => s.score > 0);
  scored.sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.tool);
}

/**
 * The `search_tools` tool: finds deferred MCP tools and unlocks the found ones, so the NEXT step
 * declares them (a step's tool list never changes under the model).
 */
export function searchToolsDefinition(
  deferred: readonly ToolDefinition[],
  unlock: (names: string[]) => void,
): ToolDefinition {
  return {
    name: SEARCH_TOOLS_NAME,
    hookName: SEARCH_TOOLS_NAME,
    hookAliases: [],
    description: `Search ${deferred.length} MCP tools that are not declared yet by keywords. ` +
      "Tools found become callable from your next step, with the names and parameters returned here.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "Keywords describing the capability you need" },
        limit: { type: "integer", description: `Maximum results (default ${DEFAULT_LIMIT})` },
      },
      required: ["query"],
      additionalProperties: false,
    },
    parallel: true,
    source: { kind: "mcp_resource" },
    approval: () => ({ kind: "none" }),
    parseArguments: parseSearchArguments,
    run: (args) => Promise.resolve(runSearch(deferred, args as SearchArgs, unlock)),
  };
}

interface SearchArgs {
  query: string;
  limit: number;
}

function parseSearchArguments(raw: unknown): SearchArgs {
  const value = typeof raw === "string" ? (raw.trim() === "" ? {} : JSON.parse(raw)) : raw ?? {};
  const { query, limit } = value as Record<string, unknown>;
  if (typeof query !== "string" || query.trim() === "") {
    throw new TrellisError("tool_arguments", "query must be a non-empty string", { field: "query" });
  }
  if (limit !== undefined && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1)) {
    throw new TrellisError("tool_arguments", "limit must be a positive integer", { field: "limit" });
  }
  return { query, limit: Math.min((limit as number | undefined) ?? DEFAULT_LIMIT, MAX_LIMIT) };
}

function runSearch(
  deferred: readonly ToolDefinition[],
  args: SearchArgs,
  unlock: (n: string[]) => void,
): ToolResult {
  const found = searchTools(deferred, args.query, args.limit);
  unlock(found.map((t) => t.name));
  const tools = found.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  return {
    status: "success",
    output: JSON.stringify({
      tools,
      note: tools.length > 0
        ? "These tools are callable from your next step."
        : "No tool matched; try other keywords.",
    }),
  };
}
