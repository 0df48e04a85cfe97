/**
 * ModelRequest → the body of `POST /messages` (Anthropic Messages API, streaming), shaped as Claude
 * Code 2.1.332 shapes its own (read from its captured first requests, /work/captures):
 *
 * - `system` is a list of text blocks, each marked `cache_control: ephemeral`. The cache prefix runs
 *   tools → system → messages, so the system breakpoint caches the tool declarations as well; Claude
 *   Code marks no tool, and neither does Trellis.
 * - The moving end of the conversation, the last content block of the last message, carries the
 *   third breakpoint, so each step reads the previous step's prefix from the cache.
 * - Thinking is `{ type: "enabled", budget_tokens }` from `model_reasoning_effort`; Claude Code's
 *   default (`high`) asks for 31,999 of its 32,000 `max_tokens`.
 */
import type Anthropic from "@anthropic-ai/sdk";
import {
  type ConversationItem,
  type ModelRequest,
  type OutputPart,
  STRUCTURED_OUTPUT_TOOL,
} from "../shared/mod.ts";
import { hostedMessagesTools } from "./hosted_tools.ts";
import { messagesImageBlock } from "./image_parts.ts";

type ContentBlock = Anthropic.ContentBlockParam;
type Message = { role: "user" | "assistant"; content: ContentBlock[] };

/** Claude Code's `max_tokens` for the Claude 4 family. */
export const DEFAULT_MAX_TOKENS = 32_000;

/**
 * Thinking budgets per `model_reasoning_effort`: Claude Code's keywords (think 4k, think hard 10k,
 * ultrathink 31,999) on the effort names Trellis shares with Codex; 1,024 is the API's minimum.
 */
const THINKING_BUDGETS: Record<string, number> = {
  minimal: 1_024,
  low: 4_000,
  medium: 10_000,
  high: 31_999,
  xhigh: 31_999,
};

export interface MessagesOptions {
  /** `model_reasoning_effort`; unset or `none` sends no thinking. */
  effort?: string;
  maxTokens?: number;
}

const EPHEMERAL = { type: "ephemeral" } as const;

/** The thinking budget for an effort, or undefined when the effort asks for none. */
export function thinkingBudget(
  effort: string | undefined,
  maxTokens = DEFAULT_MAX_TOKENS,
): number | undefined {
  if (!effort || effort === "none") return undefined;
  const budget = THINKING_BUDGETS[effort] ?? THINKING_BUDGETS.medium;
  return Math.min(budget, maxTokens - 1);
}

export function toMessagesBody(
  request: ModelRequest,
  options: MessagesOptions = {},
): Record<string, unknown> {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const budget = thinkingBudget(options.effort, maxTokens);
  const { system, messages } = toMessages(request.instructions, request.input, budget !== undefined);
  markMovingEnd(messages);
  const body: Record<string, unknown> = { model: request.model, messages };
  if (system.length > 0) body.system = system;
  // `tools.web_search` declares Anthropic's server search tool here, as `web_search` on Responses.
  const hosted = hostedMessagesTools(request.hostedTools);
  const output = request.outputSchema ? [structuredOutputTool(request.outputSchema)] : [];
  if (request.tools.length > 0 || hosted.length > 0 || output.length > 0) {
    body.tools = [
      ...request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.parameters,
      })),
      ...hosted,
      ...output,
    ];
    const parallel = request.parallelToolCalls ? {} : { disable_parallel_tool_use: true };
    // Tool forcing: every step calls a tool, and the StructuredOutput call ends the turn. The API
    // refuses forced tool use beside extended thinking, so with thinking on the tool is only offered.
    if (output.length > 0 && budget === undefined) body.tool_choice = { type: "any", ...parallel };
    else if (!request.parallelToolCalls) body.tool_choice = { type: "auto", ...parallel };
  }
  body.max_tokens = maxTokens;
  if (budget !== undefined) body.thinking = { type: "enabled", budget_tokens: budget };
  body.stream = true;
  return body;
}

/**
 * System and developer items before the first user turn join `system` (as Codex's instructions do);
 * later ones become user text, since the Messages API has no mid-conversation system role.
 * Consecutive items of one role share a message: parallel tool calls one assistant message, their
 * results one user message, results first, as the API requires.
 */
export function toMessages(
  instructions: string,
  input: ConversationItem[],
  keepThinking: boolean,
): { system: Anthropic.TextBlockParam[]; messages: Message[] } {
  const system: Anthropic.TextBlockParam[] = instructions
    ? [{ type: "text", text: instructions, cache_control: EPHEMERAL }]
    : [];
  const messages: Message[] = [];
  const push = (role: Message["role"], block: ContentBlock) => {
    const last = messages.at(-1);
    if (last?.role === role) {
      if (block.type === "tool_result") {
        const firstOther = last.content.findIndex((b) => b.type !== "tool_result");
        if (firstOther === -1) last.content.push(block);
        else last.content.splice(firstOther, 0, block);
      } else last.content.push(block);
    } else messages.push({ role, content: [block] });
  };
  for (const item of input) {
    switch (item.type) {
      case "message":
        if (item.role === "assistant") {
          if (item.content !== "") push("assistant", { type: "text", text: item.content });
        } else if ((item.role === "system" || item.role === "developer") && messages.length === 0) {
          system.push({ type: "text", text: item.content, cache_control: EPHEMERAL });
        } else {
          push("user", { type: "text", text: item.content || " " });
          for (const image of item.images ?? []) {
            push("user", messagesImageBlock(image) as unknown as Anthropic.ImageBlockParam);
          }
        }
        break;
      case "reasoning":
        if (!keepThinking) break;
        if (item.redactedData !== undefined) {
          push("assistant", { type: "redacted_thinking", data: item.redactedData });
        } else if (item.signature !== undefined) {
          push("assistant", { type: "thinking", thinking: item.summary, signature: item.signature });
        }
        break;
      case "function_call":
        push("assistant", {
          type: "tool_use",
          id: item.callId,
          name: item.name,
          // A freeform call (apply_patch on Responses, then /model to Claude) is the function's {input}.
          input: item.custom ? { input: item.arguments } : toolInput(item.arguments),
        });
        break;
      case "function_call_output":
        push("user", {
          type: "tool_result",
          tool_use_id: item.callId,
          content: resultContent(item.output, item.content),
          // Claude Code states it either way (`is_error: false` on a success).
          is_error: item.status !== "success",
        });
        break;
    }
  }
  // System blocks keep at most two breakpoints (of the API's four): the first and the last.
  system.forEach((block, index) => {
    if (index !== 0 && index !== system.length - 1) delete block.cache_control;
  });
  return { system, messages };
}

/** The last block of the last message carries the conversation's breakpoint. */
function markMovingEnd(messages: Message[]): void {
  const block = messages.at(-1)?.content.at(-1);
  if (block && block.type !== "thinking" && block.type !== "redacted_thinking") {
    (block as { cache_control?: unknown }).cache_control = EPHEMERAL;
  }
}

/** Recorded arguments are JSON text; an unreadable one goes back as a string field, not dropped. */
function toolInput(text: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(text || "{}");
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
  } catch {
    // fall through
  }
  return { raw_arguments: text };
}

/** Plain text unless the output carries images, which go as image blocks beside the text. */
function resultContent(
  output: string,
  content: OutputPart[] | undefined,
): string | Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> {
  if (!content || !content.some((part) => part.type === "image")) return output;
  const blocks: Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> =
    content.some((part) => part.type === "text") ? [] : output ? [{ type: "text", text: output }] : [];
  for (const part of content) {
    if (part.type === "text") {
      if (part.text !== "") blocks.push({ type: "text", text: part.text });
    } else if (part.type === "image") {
      blocks.push(messagesImageBlock(part) as unknown as Anthropic.ImageBlockParam);
    } else blocks.push({ type: "text", text: `[audio omitted: ${part.mimeType}]` });
  }
  return blocks;
}

/** `--output-schema` on the Messages wire: the answer is this tool's input, checked by the API. */
function structuredOutputTool(schema: Record<string, unknown>): Record<string, unknown> {
  return {
    name: STRUCTURED_OUTPUT_TOOL,
    description: "Give your final answer by calling this tool once, last, with the answer as its input.",
    input_schema: schema,
  };
}
