/** ModelRequest → the body of `POST /responses` (OpenAI Responses API, streaming). */
import type { ConversationItem, ModelRequest, OutputPart } from "../shared/mod.ts";
import { hostedResponsesTools } from "./hosted_tools.ts";
import { responsesImagePart } from "./image_parts.ts";

type WireItem = Record<string, unknown>;

export interface ResponsesOptions {
  /**
   * Reasoning controls (`model_reasoning_effort`), sent only when set: non-reasoning models reject
   * them. Set, the request also asks for `reasoning.encrypted_content` and sends recorded reasoning
   * items back with it, as Codex does, so the model keeps its chain across tool calls and turns.
   * Unset, reasoning items are left out (a non-reasoning model refuses encrypted content).
   */
  reasoning?: { effort?: string; summary?: "auto" | "concise" | "detailed" };
}

export function toResponsesBody(
  request: ModelRequest,
  options: ResponsesOptions = {},
): Record<string, unknown> {
  const keep = options.reasoning !== undefined;
  return {
    model: request.model,
    instructions: request.instructions,
    input: request.input.flatMap((item) => item.type === "reasoning" && !keep ? [] : toResponsesItem(item)),
    ...bodyTail(request, options),
  };
}

/**
 * `JSON.stringify(toResponsesBody(request, options))` without re-converting and re-serializing the
 * whole history on every step: each item's JSON is kept beside the item, so a turn of n steps
 * costs O(n) conversions instead of O(n²). Recorded items are never mutated.
 */
export function toResponsesJson(request: ModelRequest, options: ResponsesOptions = {}): string {
  const keep = options.reasoning !== undefined;
  const head = JSON.stringify({ model: request.model, instructions: request.instructions });
  const input = request.input
    .map((item) => item.type === "reasoning" && !keep ? "" : itemJson(item))
    .filter((json) => json !== "")
    .join(",");
  const tail = JSON.stringify(bodyTail(request, options));
  const open = head === "{}" ? "{" : `${head.slice(0, -1)},`;
  return `${open}"input":[${input}],${tail.slice(1)}`;
}

const itemJsonCache = new WeakMap<ConversationItem, string>();

function itemJson(item: ConversationItem): string {
  let json = itemJsonCache.get(item);
  if (json === undefined) {
    json = toResponsesItem(item).map((wire) => JSON.stringify(wire)).join(",");
    itemJsonCache.set(item, json);
  }
  return json;
}

function bodyTail(request: ModelRequest, options: ResponsesOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    stream: true,
    // Nothing is stored server-side, so items are sent in full and without server ids.
    store: false,
  };
  const hosted = hostedResponsesTools(request.hostedTools);
  if (request.tools.length > 0 || hosted.length > 0) {
    body.tools = [...declaredFunctions(request.tools), ...hosted];
    body.tool_choice = "auto";
    body.parallel_tool_calls = request.parallelToolCalls;
  }
  // As Codex 0.171 sends `--output-schema` (captured from its request to the fixture model).
  if (request.outputSchema) {
    body.text = {
      format: {
        type: "json_schema",
        strict: true,
        schema: request.outputSchema,
        name: "codex_output_schema",
      },
    };
  }
  if (options.reasoning) {
    body.reasoning = options.reasoning;
    body.include = ["reasoning.encrypted_content"];
  }
  return body;
}

/**
 * The request for a Responses endpoint without freeform tools (`supports_custom_tools = false`):
 * each freeform tool declared as its `{input}` function, and a freeform call recorded earlier (on
 * OpenAI's endpoint) sent back as that function's call, as the Chat and Messages wires send it.
 */
export function withoutCustomTools(request: ModelRequest): ModelRequest {
  return {
    ...request,
    tools: request.tools.map(({ freeform: _freeform, ...tool }) => tool),
    input: request.input.map((item) => {
      if (item.type === "function_call" && item.custom) {
        const { custom: _custom, ...call } = item;
        return { ...call, arguments: JSON.stringify({ input: item.arguments }) };
      }
      if (item.type === "function_call_output" && item.custom) {
        const { custom: _custom, ...output } = item;
        return output;
      }
      return item;
    }),
  };
}

/**
 * The functions, each namespaced one inside its `type: "namespace"` group, placed where the group's
 * first member stood (Codex's shape: `{type, name, description, tools: [function…]}`).
 */
function declaredFunctions(tools: ModelRequest["tools"]): WireItem[] {
  const out: WireItem[] = [];
  const groups = new Map<string, WireItem[]>();
  for (const tool of tools) {
    if (tool.freeform && !tool.namespace) {
      out.push({
        type: "custom",
        name: tool.name,
        description: tool.description,
        format: { type: "grammar", syntax: tool.freeform.syntax, definition: tool.freeform.definition },
      });
      continue;
    }
    const fn = {
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    };
    if (!tool.namespace) {
      out.push(fn);
      continue;
    }
    let members = groups.get(tool.namespace.name);
    if (!members) {
      members = [];
      groups.set(tool.namespace.name, members);
      out.push({
        type: "namespace",
        name: tool.namespace.name,
        description: tool.namespace.description,
        tools: members,
      });
    }
    members.push(fn);
  }
  return out;
}

/**
 * With `store: false` the API accepts a reasoning item back only with its encrypted content and
 * without its id (nothing server-side to resolve the id against), which is how Codex sends it;
 * a reasoning item without encrypted content (Chat Completions, older transcripts) is left out.
 */
export function toResponsesItem(item: ConversationItem): WireItem[] {
  switch (item.type) {
    case "message":
      return [{
        type: "message",
        role: item.role,
        content: [
          { type: item.role === "assistant" ? "output_text" : "input_text", text: item.content },
          ...(item.images ?? []).map(responsesImagePart),
        ],
      }];
    case "reasoning":
      if (item.encryptedContent === undefined) return [];
      return [{
        type: "reasoning",
        summary: item.summary ? [{ type: "summary_text", text: item.summary }] : [],
        encrypted_content: item.encryptedContent,
      }];
    case "function_call":
      if (item.custom) {
        return [{ type: "custom_tool_call", call_id: item.callId, name: item.name, input: item.arguments }];
      }
      return [{
        type: "function_call",
        call_id: item.callId,
        name: item.name,
        ...(item.namespace ? { namespace: item.namespace } : {}),
        arguments: item.arguments,
      }];
    case "function_call_output":
      return [{
        type: item.custom ? "custom_tool_call_output" : "function_call_output",
        call_id: item.callId,
        output: outputFor(item.output, item.content),
      }];
  }
}

/** Plain text unless the output carries images, which the Responses API takes as `input_image` parts. */
function outputFor(output: string, content: OutputPart[] | undefined): string | WireItem[] {
  if (!content || !content.some((part) => part.type === "image")) return output;
  const parts: WireItem[] = content.some((part) => part.type === "text")
    ? []
    : [{ type: "input_text", text: output }];
  for (const part of content) {
    if (part.type === "text") parts.push({ type: "input_text", text: part.text });
    else if (part.type === "image") {
      parts.push(responsesImagePart(part));
    } else parts.push({ type: "input_text", text: `[audio omitted: ${part.mimeType}]` });
  }
  return parts;
}
