import type { ModelClient } from "../loop/mod.ts";
import type { SamplingRequest, SamplingResult } from "../mcp/mod.ts";
import type { ConversationItem } from "../shared/mod.ts";

/**
 * Answers an MCP server's `sampling/createMessage` with the session's own model: the server's
 * messages become the input, its system prompt the instructions, no tools. Policy, consent and the
 * per-server token budget are decided in lib/mcp before this runs.
 */
export function samplingHandler(model: ModelClient, currentModel: () => string) {
  return async (request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult> => {
    // The session's model when the request arrives (`/model` applies to MCP sampling too).
    const modelName = currentModel();
    let text = "";
    let usage = { inputTokens: 0, outputTokens: 0 };
    for await (
      const event of model.stream({
        model: modelName,
        instructions: request.systemPrompt ?? "",
        input: request.messages.map(toItem),
        tools: [],
        parallelToolCalls: false,
      }, signal)
    ) {
      if (event.type === "item_done" && event.item.type === "message" && event.item.role === "assistant") {
        text += event.item.content;
      } else if (event.type === "completed") {
        usage = { inputTokens: event.usage.inputTokens, outputTokens: event.usage.outputTokens };
      }
    }
    return {
      role: "assistant",
      content: { type: "text", text },
      model: modelName,
      stopReason: "endTurn",
      usage,
    };
  };
}

function toItem(message: SamplingRequest["messages"][number]): ConversationItem {
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  const content = parts.map((p) =>
    p.type === "text" ? p.text : `[${p.type} content omitted${"mimeType" in p ? `: ${p.mimeType}` : ""}]`
  ).join("\n");
  return { type: "message", role: message.role === "assistant" ? "assistant" : "user", content };
}
