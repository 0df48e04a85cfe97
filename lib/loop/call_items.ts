/**
 * A tool call as an event-stream item, in the shape `codex exec --json` gives the same kind of call:
 * the shell is a `command_execution`, a file write or edit a `file_change`, an MCP tool an
 * `mcp_tool_call`; any other tool is Trellis's own `tool_call`. Every one also carries Trellis's
 * call fields (name, call_id, source, call_status, output, duration_ms, and display_text when what
 * a person reads differs from the model's output).
 */
import * as path from "node:path";
import type { CallStatus, ConversationItem, OutputPart, ThreadItem, ToolDefinition } from "../shared/mod.ts";

type Call = ConversationItem & { type: "function_call" };
type CallOutput = ConversationItem & { type: "function_call_output" };

export interface CallItemContext {
  id: string;
  call: Call;
  tool: ToolDefinition | undefined;
  cwd: string;
  /** The calling thread (collab items' `sender_thread_id`). */
  threadId?: string;
}

/** The item as the call starts. */
export function startedCallItem(context: CallItemContext): ThreadItem {
  return callItem(context, { call_status: "in_progress" });
}

/** The item once the call has its output. */
export function completedCallItem(
  context: CallItemContext,
  output: CallOutput,
  durationMs: number,
  displayText?: string,
): ThreadItem {
  return callItem(context, {
    call_status: output.status === "success"
      ? "completed"
      : output.status === "error"
      ? "failed"
      : output.status,
    output: output.output,
    content: output.content,
    duration_ms: durationMs,
    ...(displayText !== undefined ? { display_text: displayText } : {}),
  });
}

interface Progress {
  call_status: CallStatus;
  output?: string;
  content?: OutputPart[];
  duration_ms?: number;
  /** What a person reads instead of `output` (an MCP result's text beside its structuredContent). */
  display_text?: string;
}

function callItem({ id, call, tool, cwd, threadId }: CallItemContext, progress: Progress): ThreadItem {
  const { content, ...shown } = progress;
  const fields = { id, name: call.name, call_id: call.callId, source: describeSource(tool), ...shown };
  const args = parsedArguments(call.arguments);
  const status = progress.call_status;
  if (tool?.source.kind === "mcp") {
    return {
      ...fields,
      type: "mcp_tool_call",
      server: tool.source.server,
      tool: tool.source.tool,
      arguments: args ?? call.arguments,
      status: status === "in_progress" || status === "completed" ? status : "failed",
      ...mcpOutcome(progress, content),
    };
  }
  if (tool?.hookName === "Bash" && typeof args?.command === "string") {
    const result = progress.output === undefined ? undefined : shellResult(progress.output);
    return {
      ...fields,
      type: "command_execution",
      command: args.command,
      aggregated_output: result?.output ?? "",
      ...(result?.exitCode !== undefined ? { exit_code: result.exitCode } : {}),
      status: status === "denied" ? "declined" : status === "aborted" ? "failed" : status,
    };
  }
  if ((tool?.hookName === "Write" || tool?.hookName === "Edit") && typeof args?.path === "string") {
    return {
      ...fields,
      type: "file_change",
      changes: [{ path: path.resolve(cwd, args.path), kind: changeKind(tool.hookName, progress.output) }],
      status: status === "in_progress" || status === "completed" ? status : "failed",
    };
  }
  if (tool?.source.kind === "agents" && args) {
    return {
      ...fields,
      type: "collab_tool_call",
      arguments: call.arguments,
      ...(threadId ? { sender_thread_id: threadId } : {}),
      ...collabFields(tool.name, args, progress.output),
      status: status === "in_progress" || status === "completed" ? status : "failed",
    };
  }
  return { ...fields, type: "tool_call", arguments: call.arguments, status };
}

/** Codex's collab fields from the call's arguments and (once answered) its JSON output. */
function collabFields(name: string, args: Record<string, unknown>, output: string | undefined) {
  const answer = output === undefined ? undefined : parsedArguments(output);
  const named = [args.target, args.id, ...(Array.isArray(args.targets) ? args.targets : [])]
    .filter((t): t is string => typeof t === "string");
  const spawned = typeof answer?.agent_id === "string" ? [answer.agent_id] : [];
  const states: Record<string, { status: string; message: string | null }> = {};
  for (const id of spawned) states[id] = { status: "pending_init", message: null };
  const reported = answer?.status && typeof answer.status === "object" ? answer.status : {};
  for (const [id, state] of Object.entries(reported as Record<string, unknown>)) {
    const [status, message] = state && typeof state === "object"
      ? Object.entries(state as Record<string, unknown>)[0] ?? ["unknown", null]
      : [String(state), null];
    states[id] = { status, message: typeof message === "string" ? message : null };
  }
  const prompt = typeof args.message === "string"
    ? args.message
    : typeof args.prompt === "string"
    ? args.prompt
    : null;
  return {
    tool: name === "wait_agent" ? "wait" : name === "Agent" ? "spawn_agent" : name,
    receiver_thread_ids: [...spawned, ...named],
    prompt,
    agents_states: states,
  };
}

function mcpOutcome(progress: Progress, content: OutputPart[] | undefined) {
  if (progress.output === undefined) return {};
  if (progress.call_status !== "completed") return { error: { message: progress.output } };
  return {
    result: {
      // MCP content blocks: Trellis keeps text, image and audio parts in MCP's own shape.
      content: content ?? [{ type: "text", text: progress.display_text ?? progress.output }],
      structured_content: null,
    },
  };
}

/**
 * The shell tool's model-facing text is `Exit code: N`, `Wall time: …`, `Output:` and the output
 * (lib/tools/shell_output.ts); Codex reports the exit code and the output apart. Any other text
 * (a refusal, a timeout, a sandbox error) is the output as is, without an exit code.
 */
function shellResult(text: string): { exitCode?: number; output: string } {
  const match = /^Exit code: (-?\d+)\nWall time: [^\n]*\nOutput:\n/.exec(text);
  return match ? { exitCode: Number(match[1]), output: text.slice(match[0].length) } : { output: text };
}

/** write_file says whether it created the file; an edit always updates one. */
function changeKind(hookName: string, output: string | undefined): "add" | "update" {
  if (hookName === "Edit") return "update";
  return output?.startsWith("Overwrote") ? "update" : "add";
}

function parsedArguments(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function describeSource(tool: ToolDefinition | undefined): string {
  if (!tool) return "unknown";
  switch (tool.source.kind) {
    case "mcp":
      return `mcp:${tool.source.server}`;
    case "builtin":
    case "mcp_resource":
    case "skills":
    case "plugins":
    case "agents":
      return tool.source.kind;
    default: {
      const never: never = tool.source;
      return String(never);
    }
  }
}
