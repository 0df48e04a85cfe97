import type { ConversationItem, ToolDeclaration, ToolSource } from "../shared/mod.ts";
import { INSTRUCTIONS_HEADING } from "./project_instructions_message.ts";
import type { InputPlace, RequestParts } from "./request_parts.ts";
import type { TokenCounter } from "./token_counter.ts";

/** What a ledger row counts: one source of the next request's tokens (#17 item 3). */
export type LedgerSource =
  | "base_instructions"
  | "config_instructions"
  | "mcp_instructions"
  | "project_instructions"
  | "builtin_tools"
  | "mcp_tools"
  | "other_tools"
  | "skills_catalog"
  | "plugin_summaries"
  | "skill_bodies"
  | "mcp_prompts"
  | "hook_context"
  | "history"
  | "tool_outputs"
  | "attachments"
  | "prompt";

export interface LedgerRow {
  source: LedgerSource;
  /** What a person reads: "MCP server github", "AGENTS.md /repo/AGENTS.md". */
  name: string;
  tokens: number;
  /** Tools, messages or files the row sums. */
  items: number;
  /** `tokens` over the context window; null when the window is unknown. */
  share: number | null;
}

export interface ContextLedger {
  model: string;
  /** "o200k_base" counts exactly; "estimate" is characters / 4. */
  encoding: TokenCounter["encoding"];
  /**
   * The provider's own count of the whole request (Anthropic's count_tokens), when it gave one: the
   * exact total for a model whose tokenizer is not public; the rows stay estimates.
   */
  providerTotal?: { tokens: number; source: "count_tokens" };
  contextWindow: number | null;
  total: number;
  /** `total` over the context window; null when the window is unknown. */
  share: number | null;
  rows: LedgerRow[];
  /** Concrete changes that would free the most context, largest first. */
  advice: string[];
  /** The tokenizer that failed to load, and the like. */
  warnings: string[];
  /** What the ledger does not count, and why. */
  notes: string[];
  /**
   * This session's subagents (#22 item 6), each its own context window — not in `total`: their
   * answers reach this request as tool outputs, counted there.
   */
  agents: AgentContextRow[];
}

/** One subagent's context: its instructions and history as its transcript holds them. */
export interface AgentContextRow {
  agentId: string;
  agentType: string;
  tokens: number;
  /** Over the session's window (children run on it unless their model says otherwise); null: unknown. */
  share: number | null;
  transcript: string;
}

/** Sources with one row always, in the order a person reads them; mcp_tools and files add their own. */
const FIXED_ROWS: [LedgerSource, string][] = [
  ["base_instructions", "base instructions"],
  ["config_instructions", "config instructions"],
  ["mcp_instructions", "MCP server instructions"],
  ["builtin_tools", "built-in tools"],
  ["other_tools", "other tools (tool search, MCP resources, plugin install)"],
  ["skills_catalog", "skills catalog"],
  ["plugin_summaries", "plugin summaries"],
  ["skill_bodies", "injected skill bodies"],
  ["mcp_prompts", "MCP prompts"],
  ["hook_context", "hook-added context"],
  ["history", "history (messages and tool calls)"],
  ["tool_outputs", "tool outputs"],
  ["attachments", "attached files"],
  ["prompt", "prompt"],
];

/** The order rows are listed in: instructions, tools, context blocks, the conversation. */
const ORDER: LedgerSource[] = [
  "base_instructions",
  "config_instructions",
  "mcp_instructions",
  "project_instructions",
  "builtin_tools",
  "mcp_tools",
  "other_tools",
  "skills_catalog",
  "plugin_summaries",
  "skill_bodies",
  "mcp_prompts",
  "hook_context",
  "history",
  "tool_outputs",
  "attachments",
  "prompt",
];

/** Above this, one MCP server's declarations earn advice; the share of the window counts too. */
const MCP_ADVICE_TOKENS = 5_000;

/** A row's name for each instruction file family. */
const INSTRUCTION_LABELS = { agents: "AGENTS.md", claude: "CLAUDE.md", gemini: "GEMINI.md" } as const;

/**
 * The next request's tokens by source, counted from the parts `Session.previewRequestParts` assembled
 * (never a second assembly). Each part's text is counted as the model reads it: message contents,
 * tool declarations as their JSON, calls as name and arguments. The provider's own framing (a few
 * tokens per message and tool) is not in any row.
 */
export function buildContextLedger(
  parts: RequestParts,
  counter: TokenCounter,
  options: { contextWindow?: number; notes?: string[] } = {},
): ContextLedger {
  const rows = new Map<string, LedgerRow>();
  const add = (source: LedgerSource, name: string, tokens: number, items = 1) => {
    const key = `${source}\u0000${name}`;
    const row = rows.get(key) ?? { source, name, tokens: 0, items: 0, share: null };
    row.tokens += tokens;
    row.items += items;
    rows.set(key, row);
  };
  for (const [source, name] of FIXED_ROWS) add(source, name, 0, 0);
  for (const server of parts.mcpServers) add("mcp_tools", mcpRowName(server), 0, 0);

  const { request, baseInstructions, mcpInstructions } = parts;
  // #21 item 13: the servers' section ends the instructions; one row for it, its servers as items.
  const own = mcpInstructions && request.instructions.endsWith(`\n\n${mcpInstructions}`)
    ? request.instructions.slice(0, -(mcpInstructions.length + 2))
    : request.instructions;
  if (own !== request.instructions) {
    add(
      "mcp_instructions",
      "MCP server instructions",
      counter.count(mcpInstructions),
      parts.mcpInstructionServers.length,
    );
  }
  const base = own.startsWith(baseInstructions) ? baseInstructions : own;
  add("base_instructions", "base instructions", counter.count(base));
  const extra = own.slice(base.length).replace(/^\n\n/, "");
  if (extra) add("config_instructions", "config instructions", counter.count(extra));

  request.tools.forEach((tool, i) => {
    const [source, name] = toolRow(parts.toolSources[i]);
    add(source, name, counter.count(declarationText(tool)));
  });

  countProjectInstructions(parts, counter, add);
  request.input.forEach((item, i) => {
    const source = itemSource(item, parts.inputPlaces[i]);
    if (source === "project_instructions") return; // counted per file above
    add(source, FIXED_ROWS.find(([s]) => s === source)![1], counter.count(itemText(item)));
  });

  const list = [...rows.values()].sort((a, b) => ORDER.indexOf(a.source) - ORDER.indexOf(b.source));
  const total = list.reduce((sum, r) => sum + r.tokens, 0);
  const contextWindow = options.contextWindow ?? null;
  const share = (tokens: number) => contextWindow ? tokens / contextWindow : null;
  for (const row of list) row.share = share(row.tokens);
  return {
    model: request.model,
    encoding: counter.encoding,
    contextWindow,
    total,
    share: share(total),
    rows: list,
    advice: adviceFor(list, total, contextWindow),
    warnings: counter.warning ? [counter.warning] : [],
    notes: options.notes ?? [],
    agents: [],
  };
}

function mcpRowName(server: string): string {
  return `MCP server ${server}`;
}

function toolRow(source: ToolSource | undefined): [LedgerSource, string] {
  if (source?.kind === "builtin") return ["builtin_tools", "built-in tools"];
  if (source?.kind === "mcp") return ["mcp_tools", mcpRowName(source.server)];
  return ["other_tools", FIXED_ROWS.find(([s]) => s === "other_tools")![1]];
}

/** A declaration as the request carries it: name, description and the parameters' JSON schema. */
function declarationText(tool: ToolDeclaration): string {
  return JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters });
}

/**
 * One row per AGENTS.md / CLAUDE.md file (its text), and one for the rest of the instructions
 * messages: the heading, the wrappers and any earlier copy a resumed history still carries.
 */
function countProjectInstructions(
  parts: RequestParts,
  counter: TokenCounter,
  add: (source: LedgerSource, name: string, tokens: number, items?: number) => void,
): void {
  const messages = parts.request.input.filter((item, i) =>
    itemSource(item, parts.inputPlaces[i]) === "project_instructions"
  );
  const whole = messages.reduce((sum, item) => sum + counter.count(itemText(item)), 0);
  let files = 0;
  if (messages.length > 0) {
    for (const file of parts.projectInstructions.files) {
      const tokens = counter.count(file.text);
      files += tokens;
      add(
        "project_instructions",
        `${INSTRUCTION_LABELS[file.family]} ${file.path}`,
        tokens,
      );
    }
  }
  const rest = messages.length > 1 ? `headings and ${messages.length - 1} earlier copies` : "headings";
  add("project_instructions", `project instructions: ${rest}`, Math.max(0, whole - files), messages.length);
}

function itemSource(item: ConversationItem, place: InputPlace | undefined): LedgerSource {
  if (place === "prompt") return "prompt";
  if (item.type === "function_call_output") return "tool_outputs";
  if (item.type !== "message") return "history";
  if (item.role === "user") {
    if (item.content.startsWith(INSTRUCTIONS_HEADING)) return "project_instructions";
    if (item.content.startsWith("<skill>\n<name>")) return "skill_bodies";
    if (item.content.startsWith("<attached_file ") || item.content.startsWith("<attached_image ")) {
      return "attachments";
    }
    return place === "injected" ? "mcp_prompts" : "history";
  }
  if (item.role === "developer") {
    if (item.content.startsWith("<skills_instructions>")) return "skills_catalog";
    if (item.content.startsWith("<plugins_instructions>")) return "plugin_summaries";
    // SessionStart, UserPromptSubmit and tool hooks' additionalContext are the other developer
    // messages a session records.
    return "hook_context";
  }
  return place === "injected" ? "mcp_prompts" : "history";
}

/** The text of an item the model reads: contents, call names and arguments, outputs' text parts. */
/** One item's text as the model reads it (subagent contexts are counted the same way). */
export function itemText(item: ConversationItem): string {
  switch (item.type) {
    case "message":
      return item.content;
    case "reasoning":
      return item.summary; // the encrypted reasoning is opaque: its size is the provider's to count
    case "function_call":
      return `${item.name}${item.arguments}`;
    case "function_call_output":
      return [item.output, ...(item.content ?? []).map((p) => p.type === "text" ? p.text : "")].join("");
  }
}

/** "18.4k", "950": how a person reads a token count. */
export function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function adviceFor(rows: LedgerRow[], total: number, window: number | null): string[] {
  const share = (n: number) => window ? n / window : 0;
  const advice: { tokens: number; text: string }[] = [];
  for (const row of rows) {
    const t = formatTokens(row.tokens);
    if (row.source === "mcp_tools" && (row.tokens >= MCP_ADVICE_TOKENS || share(row.tokens) >= 0.05)) {
      const server = row.name.slice("MCP server ".length);
      advice.push({
        tokens: row.tokens,
        text: `${row.name} declares ${t} tokens of tools (${row.items}): enable tool search ` +
          `(tool_search = true) or keep only the tools you use with ` +
          `[mcp_servers.${server}] enabled_tools = [...]`,
      });
    }
    if (row.source === "skills_catalog" && share(row.tokens) > 0.02) {
      advice.push({
        tokens: row.tokens,
        text: `the skills catalog takes ${t} tokens: disable skills you do not use ` +
          `([[skills.config]] enabled = false) or hide it with skills.include_instructions = false`,
      });
    }
    if (row.source === "project_instructions" && row.name.includes("/") && share(row.tokens) > 0.05) {
      advice.push({
        tokens: row.tokens,
        text: `${row.name} is ${t} tokens: shorten it, or cap it with project_doc_max_bytes`,
      });
    }
    if (row.source === "tool_outputs" && share(row.tokens) > 0.25) {
      advice.push({
        tokens: row.tokens,
        text: `tool outputs take ${t} tokens: /compact, or lower tool_output_max_bytes`,
      });
    }
    if (row.source === "history" && share(row.tokens) > 0.5) {
      advice.push({ tokens: row.tokens, text: `the history takes ${t} tokens: /compact frees most of it` });
    }
  }
  if (window && total > window) {
    advice.push({
      tokens: Infinity,
      text: `the request (${formatTokens(total)} tokens) does not fit the ${
        formatTokens(window)
      }-token context window`,
    });
  }
  return advice.sort((a, b) => b.tokens - a.tokens).map((a) => a.text);
}
