import type { HandlerIdentity } from "./hook_handler.ts";
import { vendorToolArgs, vendorToolName } from "./vendor_events.ts";

type Payload = Record<string, unknown>;

/**
 * The stdin a Gemini or Copilot CLI hook reads (#24 item 3), built from the event Trellis fired
 * (Claude Code's snake_case payload): that CLI's event name and field names, nothing of Trellis's
 * own (`turn_id`, `model`, `permission_mode`) that its hooks never saw.
 */
export function vendorPayload(
  handler: Pick<HandlerIdentity, "event" | "dialect" | "vendorEvent">,
  payload: Payload,
): Payload {
  return handler.dialect === "copilot" ? copilotPayload(handler, payload) : geminiPayload(handler, payload);
}

/** Gemini CLI's `HookInput` and the per-event fields of its hooks reference. */
function geminiPayload(handler: Pick<HandlerIdentity, "event" | "vendorEvent">, p: Payload): Payload {
  const base: Payload = {
    session_id: p.session_id,
    transcript_path: p.transcript_path ?? "",
    cwd: p.cwd,
    hook_event_name: handler.vendorEvent ?? handler.event,
    timestamp: new Date().toISOString(),
  };
  switch (handler.event) {
    case "PreToolUse":
      return { ...base, ...geminiTool(p) };
    case "PostToolUse": {
      const text = resultText(p.tool_response);
      return { ...base, ...geminiTool(p), tool_response: { llmContent: text, returnDisplay: text } };
    }
    case "UserPromptSubmit":
      return { ...base, prompt: p.prompt };
    case "Stop":
      // AfterAgent: Trellis's Stop carries the answer, not the prompt that asked for it.
      return {
        ...base,
        prompt: "",
        prompt_response: p.last_assistant_message ?? "",
        stop_hook_active: p.stop_hook_active === true,
      };
    case "SessionStart":
      return { ...base, source: p.source };
    case "PreCompact":
      return { ...base, trigger: p.trigger };
    default:
      return { ...base, ...eventFields(p) };
  }
}

function geminiTool(p: Payload): Payload {
  return { tool_name: vendorToolName("gemini", String(p.tool_name)), tool_input: p.tool_input };
}

/** Copilot CLI's camelCase payloads (the format its camelCase event names select). */
function copilotPayload(handler: Pick<HandlerIdentity, "event">, p: Payload): Payload {
  const base: Payload = { sessionId: p.session_id, timestamp: Date.now(), cwd: p.cwd };
  const transcriptPath = p.transcript_path ?? "";
  switch (handler.event) {
    case "SessionStart":
      return { ...base, source: COPILOT_SOURCES[String(p.source)] ?? p.source };
    case "UserPromptSubmit":
      return { ...base, prompt: p.prompt };
    case "PreToolUse":
    case "PermissionRequest":
      return { ...base, ...copilotTool(p) };
    case "PostToolUse":
      return {
        ...base,
        ...copilotTool(p),
        toolResult: { resultType: "success", textResultForLlm: resultText(p.tool_response) },
      };
    case "Stop":
      return {
        ...base,
        transcriptPath,
        stopReason: "end_turn",
        stop_hook_active: p.stop_hook_active === true,
      };
    case "SubagentStart":
      return { ...base, transcriptPath, agentName: p.agent_type };
    case "SubagentStop":
      return {
        ...base,
        transcriptPath,
        agentId: p.agent_id,
        agentType: p.agent_type,
        agentName: p.agent_type,
        response: p.last_assistant_message ?? "",
        stopReason: "end_turn",
      };
    case "PreCompact":
      return { ...base, transcriptPath, trigger: p.trigger, customInstructions: p.custom_instructions ?? "" };
    default:
      return { ...base, ...camelFields(eventFields(p)) };
  }
}

/** Copilot's `toolArgs` is the arguments as a JSON string, in its tools' own argument names. */
function copilotTool(p: Payload): Payload {
  const args = vendorToolArgs("copilot", p.tool_input);
  return { toolName: vendorToolName("copilot", String(p.tool_name)), toolArgs: JSON.stringify(args ?? {}) };
}

/** Trellis's session sources as Copilot names them (`new` for a fresh session after /clear). */
const COPILOT_SOURCES: Record<string, string> = {
  startup: "startup",
  resume: "resume",
  clear: "new",
  compact: "resume",
};

const BASE_FIELDS = new Set([
  "session_id",
  "transcript_path",
  "cwd",
  "hook_event_name",
  "model",
  "permission_mode",
  "turn_id",
  "agent_id",
  "agent_type",
]);

/** The event's own fields (an event added to Trellis later passes them through as they are). */
function eventFields(p: Payload): Payload {
  return Object.fromEntries(Object.entries(p).filter(([k]) => !BASE_FIELDS.has(k)));
}

function camelFields(p: Payload): Payload {
  return Object.fromEntries(
    Object.entries(p).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
  );
}

/** A tool's result as the text the model read. */
function resultText(response: unknown): string {
  if (typeof response === "string") return response;
  if (response === undefined || response === null) return "";
  const output = (response as { output?: unknown }).output;
  return typeof output === "string" ? output : JSON.stringify(response);
}
