import type { ConversationItem } from "../shared/mod.ts";
import { splitQuotedWords, TrellisError } from "../shared/mod.ts";
import type { Client } from "./_sdk.ts";
import { contentBlockText } from "./call_result.ts";
import type { ConnectionManager } from "./connection_manager.ts";
import { assignToolNames, toolIdentityKey } from "./tool_names.ts";

/** One MCP prompt as the app lists it (`/mcp__server__prompt`, `$mcp__server__prompt`). */
export interface McpPromptListing {
  server: string;
  /** The server's own name for the prompt. */
  name: string;
  /** `mcp__<server>__<prompt>`, sanitized like tool names. */
  modelName: string;
  title?: string;
  description: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

async function listServerPrompts(client: Client, timeout: number) {
  const prompts: Awaited<ReturnType<Client["listPrompts"]>>["prompts"] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listPrompts(cursor ? { cursor } : undefined, { timeout });
    prompts.push(...page.prompts);
    cursor = page.nextCursor;
    if (cursor !== undefined && seen.has(cursor)) {
      throw new TrellisError("mcp_protocol", "prompts/list returned duplicate cursor");
    }
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return prompts;
}

/**
 * Every ready server's prompts (servers without the `prompts` capability are skipped); a server
 * whose listing fails is named in `failures` and left out.
 */
export async function listManagerPrompts(
  manager: ConnectionManager,
): Promise<{ prompts: McpPromptListing[]; failures: { server: string; error: string }[] }> {
  const servers = [...manager.servers.values()].filter(({ connection }) =>
    connection.client?.getServerCapabilities()?.prompts !== undefined
  );
  const results = await Promise.allSettled(
    servers.map(({ connection, registration }) =>
      listServerPrompts(connection.client!, registration.config.toolTimeoutMs)
    ),
  );
  const failures: { server: string; error: string }[] = [];
  const raw: { server: string; prompt: Awaited<ReturnType<typeof listServerPrompts>>[number] }[] = [];
  results.forEach((r, i) => {
    const server = servers[i].registration.config.name;
    if (r.status === "rejected") failures.push({ server, error: (r.reason as Error).message });
    else for (const prompt of r.value) raw.push({ server, prompt });
  });
  const names = assignToolNames(raw.map((r) => ({ server: r.server, tool: r.prompt.name })));
  const prompts = raw.map(({ server, prompt }) => ({
    server,
    name: prompt.name,
    modelName: names.get(toolIdentityKey(server, prompt.name))!,
    ...(prompt.title ? { title: prompt.title } : {}),
    description: prompt.description ?? prompt.title ?? "",
    arguments: (prompt.arguments ?? []).map((a) => ({
      name: a.name,
      ...(a.description ? { description: a.description } : {}),
      required: a.required === true,
    })),
  }));
  return { prompts: prompts.sort((a, b) => a.modelName < b.modelName ? -1 : 1), failures };
}

/** `prompts/get` → conversation items, one message per prompt message, roles kept. */
export async function getManagerPrompt(
  manager: ConnectionManager,
  server: string,
  name: string,
  args: Record<string, string>,
): Promise<ConversationItem[]> {
  const managed = manager.servers.get(server);
  if (!managed) throw new TrellisError("mcp_config", `unknown MCP server '${server}'`, { server });
  const client = await managed.connection.ready();
  const result = await client.getPrompt({ name, arguments: args }, {
    timeout: managed.registration.config.toolTimeoutMs,
  });
  return result.messages.map((m) => ({
    type: "message",
    role: m.role === "assistant" ? "assistant" : "user",
    content: contentBlockText(m.content as Record<string, unknown> & { type: string }),
  }));
}

/** A `$mcp__server__prompt args…` mention (or a prompt that starts with `/mcp__server__prompt`). */
export interface PromptMention {
  prompt: McpPromptListing;
  /** The rest of the mention's line. */
  argsText: string;
}

const MENTION = /(^|[^A-Za-z0-9_$])\$(mcp__[A-Za-z0-9_]+)([^\n]*)/g;
const LEADING_SLASH = /^\s*\/(mcp__[A-Za-z0-9_]+)([^\n]*)/;

/** The prompt mentions of a user text, in order, each prompt at most once. */
export function findPromptMentions(text: string, prompts: readonly McpPromptListing[]): PromptMention[] {
  const byName = new Map(prompts.map((p) => [p.modelName, p]));
  const found: PromptMention[] = [];
  const add = (name: string, rest: string) => {
    const prompt = byName.get(name);
    if (prompt && !found.some((f) => f.prompt === prompt)) found.push({ prompt, argsText: rest.trim() });
  };
  const slash = LEADING_SLASH.exec(text);
  if (slash) add(slash[1], slash[2]);
  for (const m of text.matchAll(MENTION)) add(m[2], m[3]);
  return found;
}

/** Splits on blanks; single or double quotes group words (`city="New York"` is one token). */
export function splitPromptArguments(text: string): string[] {
  return splitQuotedWords(text);
}

/**
 * Arguments for a prompt from a mention's text: `name=value` for a declared argument, otherwise
 * positional in declared order (as Claude Code maps `/mcp__server__prompt a b`), extra words
 * joining the last argument. Every required argument must end up with a value.
 */
export function promptArguments(
  prompt: McpPromptListing,
  text: string,
): { args: Record<string, string> } | { error: string } {
  const declared = new Set(prompt.arguments.map((a) => a.name));
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (const token of splitPromptArguments(text)) {
    const eq = token.indexOf("=");
    if (eq > 0 && declared.has(token.slice(0, eq))) args[token.slice(0, eq)] = token.slice(eq + 1);
    else positional.push(token);
  }
  const open = prompt.arguments.filter((a) => !(a.name in args));
  open.forEach((a, i) => {
    const value = i === open.length - 1 ? positional.slice(i).join(" ") : positional[i];
    if (value) args[a.name] = value;
  });
  if (open.length === 0 && positional.length > 0) {
    return {
      error: `MCP prompt ${prompt.modelName} takes no more arguments (got "${positional.join(" ")}")`,
    };
  }
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  if (missing.length > 0) {
    return {
      error: `MCP prompt ${prompt.modelName} needs ${
        missing.map((m) => `"${m}"`).join(", ")
      } (usage: $${prompt.modelName} ${
        prompt.arguments.map((a) => a.required ? `<${a.name}>` : `[${a.name}]`).join(" ")
      })`,
    };
  }
  return { args };
}
