/** ModelRequest → the body of `POST /chat/completions` (streaming, with usage). */
import type { ConversationItem, ImageInput, ModelRequest, OutputPart } from "../shared/mod.ts";
import { chatImagePart } from "./image_parts.ts";

type ChatMessage = Record<string, unknown> & { role: string };
interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export function toChatBody(request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: toChatMessages(request.instructions, request.input),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    body.tool_choice = "auto";
    body.parallel_tool_calls = request.parallelToolCalls;
  }
  // Chat Completions' structured outputs, named as the Responses format is (#25 item 3).
  if (request.outputSchema) {
    body.response_format = {
      type: "json_schema",
      json_schema: { name: "codex_output_schema", strict: true, schema: request.outputSchema },
    };
  }
  return body;
}

/**
 * Developer and system items become system messages; consecutive function calls join the
 * assistant message before them, since Chat Completions carries calls on the assistant turn.
 * Reasoning items have no chat equivalent and are left out.
 */
export function toChatMessages(instructions: string, input: ConversationItem[]): ChatMessage[] {
  const messages: ChatMessage[] = instructions ? [{ role: "system", content: instructions }] : [];
  const pendingImages: ChatMessage[] = [];
  for (const item of input) {
    if (item.type !== "function_call_output") messages.push(...pendingImages.splice(0));
    switch (item.type) {
      case "message":
        messages.push({
          role: item.role === "developer" ? "system" : item.role,
          content: item.images?.length ? chatContent(item.content, item.images) : item.content,
        });
        break;
      case "reasoning":
        break;
      case "function_call":
        assistantFor(messages).tool_calls.push({
          id: item.callId,
          type: "function",
          // A freeform call recorded on Responses goes back as the function fallback's {input}.
          function: {
            name: item.name,
            arguments: item.custom ? JSON.stringify({ input: item.arguments }) : item.arguments,
          },
        });
        break;
      case "function_call_output": {
        messages.push({
          role: "tool",
          tool_call_id: item.callId,
          content: textOutput(item.output, item.content),
        });
        const images = imagesOf(item.content);
        // A tool message is text only: a tool's images (view_image, an MCP screenshot) follow it as a
        // user message, after the calls' outputs so the assistant's calls stay answered in order.
        if (images.length > 0) {
          pendingImages.push({
            role: "user",
            content: chatContent(`Images from the ${item.callId} call:`, images),
          });
        }
        break;
      }
    }
  }
  messages.push(...pendingImages);
  return messages;
}

function imagesOf(content: OutputPart[] | undefined): ImageInput[] {
  return (content ?? []).flatMap((part) =>
    part.type === "image" ? [{ mimeType: part.mimeType, data: part.data }] : []
  );
}

function chatContent(text: string, images: ImageInput[]): Record<string, unknown>[] {
  return [{ type: "text", text }, ...images.map(chatImagePart)];
}

function assistantFor(messages: ChatMessage[]): ChatMessage & { tool_calls: ChatToolCall[] } {
  const last = messages.at(-1);
  if (last?.role === "assistant") {
    last.tool_calls ??= [];
    return last as ChatMessage & { tool_calls: ChatToolCall[] };
  }
  const created = { role: "assistant", content: null, tool_calls: [] as ChatToolCall[] };
  messages.push(created);
  return created;
}

/** Chat tool messages are text only: images follow as a user message, audio becomes a note. */
function textOutput(output: string, content: OutputPart[] | undefined): string {
  if (!content || content.every((part) => part.type !== "audio")) return output;
  const notes = content
    .filter((part) => part.type === "audio")
    .map((part) => `[${part.type} omitted: ${"mimeType" in part ? part.mimeType : "unknown"}]`);
  return [output, ...notes].filter((text) => text !== "").join("\n");
}
