import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ConversationItem } from "../shared/mod.ts";

/**
 * A resumed session's conversation as the updates that would have shown it (`session/load`, #25
 * item 2): the person's messages as `user_message_chunk`, the model's as `agent_message_chunk`,
 * reasoning as `agent_thought_chunk`, each call as a completed (or failed) `tool_call`. Developer
 * and injected messages (skills, hook context) are the model's context, not the conversation shown.
 */
export function replayUpdates(items: readonly ConversationItem[]): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const calls = new Map<string, SessionUpdate & { sessionUpdate: "tool_call" }>();
  for (const item of items) {
    if (item.type === "message") {
      if (item.role === "user" && !isInjected(item.content)) {
        updates.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: item.content } });
      } else if (item.role === "assistant" && item.content) {
        updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: item.content } });
      }
    } else if (item.type === "reasoning" && item.summary) {
      updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: item.summary } });
    } else if (item.type === "function_call") {
      const call = {
        sessionUpdate: "tool_call" as const,
        toolCallId: item.callId,
        title: item.name,
        kind: "other" as const,
        status: "completed" as const,
        rawInput: parsed(item.arguments),
      };
      calls.set(item.callId, call);
      updates.push(call);
    } else if (item.type === "function_call_output") {
      const call = calls.get(item.callId);
      if (call) {
        call.status = item.status === "success" ? "completed" : "failed";
        call.content = [{ type: "content", content: { type: "text", text: item.output } }];
      }
    }
  }
  return updates;
}

/** Messages Trellis adds as the user's (attached files, skill bodies, images), not typed by the person. */
function isInjected(content: string): boolean {
  return /^<(attached_file|attached_image|skill|command-name|system-reminder)\b/.test(content);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
