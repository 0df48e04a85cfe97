import type { SessionUpdate, ToolCallContent, ToolKind } from "@agentclientprotocol/sdk";
import * as nodePath from "node:path";
import type { ThreadItem, TrellisEventBody } from "../shared/mod.ts";

type CallItem = Extract<ThreadItem, { call_id: string }>;

/**
 * Trellis's events as ACP `session/update`s (#25 item 1): message deltas as
 * `agent_message_chunk`, reasoning as `agent_thought_chunk`, each tool call as `tool_call` then
 * `tool_call_update` (kind, title, locations, the edit's diff), the plan tool's list as `plan`.
 * Ids are the model's call ids, so a permission request names the same tool call.
 */
export class SessionUpdates {
  /** Agent messages whose text already went out as deltas. */
  #streamed = new Set<string>();
  /** Each edit's text before and after, by call id (told by the file tools). */
  #diffs = new Map<string, { path: string; oldText: string | null; newText: string }[]>();

  /** `cwd`: what a relative path in a call's arguments is resolved against (ACP paths are absolute). */
  constructor(private readonly cwd: string) {}

  fileChanged(change: { callId: string; path: string; oldText: string | null; newText: string }): void {
    const list = this.#diffs.get(change.callId) ?? [];
    list.push({ path: change.path, oldText: change.oldText, newText: change.newText });
    this.#diffs.set(change.callId, list);
  }

  updatesFor(event: TrellisEventBody): SessionUpdate[] {
    switch (event.type) {
      case "item.agent_message.delta":
        this.#streamed.add(event.item_id);
        return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.delta } }];
      case "item.started":
        return this.#started(event.item);
      case "item.updated":
        return event.item.type === "todo_list" ? [planUpdate(event.item)] : [];
      case "item.completed":
        return this.#completed(event.item);
      default:
        return [];
    }
  }

  #started(item: ThreadItem): SessionUpdate[] {
    if (item.type === "todo_list") return [planUpdate(item)];
    if (!isCall(item)) return [];
    return [{
      sessionUpdate: "tool_call",
      toolCallId: item.call_id,
      title: toolTitle(item),
      kind: toolKind(item),
      status: "in_progress",
      locations: toolLocations(item).map((l) => ({ path: nodePath.resolve(this.cwd, l.path) })),
      rawInput: rawInput(item),
    }];
  }

  #completed(item: ThreadItem): SessionUpdate[] {
    if (item.type === "agent_message") {
      if (this.#streamed.delete(item.id) || item.text === "") return [];
      return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: item.text } }];
    }
    if (item.type === "reasoning") {
      return item.text
        ? [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: item.text } }]
        : [];
    }
    if (!isCall(item)) return [];
    const diffs = this.#diffs.get(item.call_id) ?? [];
    this.#diffs.delete(item.call_id);
    const content: ToolCallContent[] = diffs.map((d) => ({
      type: "diff",
      path: d.path,
      oldText: d.oldText,
      newText: d.newText,
    }));
    const text = item.display_text ?? item.output;
    if (text) content.push({ type: "content", content: { type: "text", text } });
    return [{
      sessionUpdate: "tool_call_update",
      toolCallId: item.call_id,
      status: item.call_status === "completed" ? "completed" : "failed",
      content,
      ...(text !== undefined ? { rawOutput: { output: text, status: item.call_status } } : {}),
    }];
  }
}

function isCall(item: ThreadItem): item is CallItem {
  return "call_id" in item;
}

function planUpdate(item: Extract<ThreadItem, { type: "todo_list" }>): SessionUpdate {
  return {
    sessionUpdate: "plan",
    entries: item.items.map((i) => ({
      content: i.text,
      priority: "medium",
      status: i.status ?? (i.completed ? "completed" : "pending"),
    })),
  };
}

const KINDS: Record<string, ToolKind> = {
  read_file: "read",
  view_image: "read",
  list_dir: "search",
  glob: "search",
  grep: "search",
  web_fetch: "fetch",
  web_search: "fetch",
  update_plan: "think",
  TodoWrite: "think",
};

export function toolKind(item: CallItem): ToolKind {
  if (item.type === "command_execution") return "execute";
  if (item.type === "file_change") return "edit";
  return KINDS[item.name] ?? "other";
}

export function toolTitle(item: CallItem): string {
  switch (item.type) {
    case "command_execution":
      return item.command;
    case "file_change":
      return `${item.name === "write_file" ? "Write" : "Edit"} ${item.changes.map((c) => c.path).join(", ")}`;
    case "mcp_tool_call":
      return `${item.server}: ${item.tool}`;
    case "tool_call": {
      const path = argumentPath(item.arguments);
      return path ? `${item.name} ${path}` : item.name;
    }
  }
}

function toolLocations(item: CallItem): { path: string }[] {
  if (item.type === "file_change") return item.changes.map((c) => ({ path: c.path }));
  if (item.type === "tool_call") {
    const path = argumentPath(item.arguments);
    return path ? [{ path }] : [];
  }
  return [];
}

function rawInput(item: CallItem): unknown {
  switch (item.type) {
    case "command_execution":
      return { command: item.command };
    case "file_change":
      return { changes: item.changes };
    case "mcp_tool_call":
      return item.arguments;
    case "tool_call":
      return parsed(item.arguments);
  }
}

function argumentPath(args: string): string | undefined {
  const value = parsed(args) as { path?: unknown; file_path?: unknown } | null;
  const path = value?.path ?? value?.file_path;
  return typeof path === "string" ? path : undefined;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
