import type { StopOutcome, ToolHookInput } from "./lifecycle_hooks.ts";

// The texts hooks put into a conversation, in one place: the loop writes them, and the hooks'
// own tests and front ends show the very same words.

/** The model-visible output of a call a PreToolUse hook blocked (§2.9). */
export function blockedToolMessage(
  reason: string,
  input: Pick<ToolHookInput, "toolName" | "toolInput">,
): string {
  const command = (input.toolInput as { command?: unknown } | null)?.command;
  if (typeof command === "string") {
    return `Command blocked by PreToolUse hook: ${reason}. Command: ${command}`;
  }
  if (Array.isArray(command)) {
    return `Command blocked by PreToolUse hook: ${reason}. Command: ${command.join(" ")}`;
  }
  return `Tool call blocked by PreToolUse hook: ${reason}. Tool: ${input.toolName}`;
}

/** The user message a blocking Stop hook adds: one `<hook_prompt>` per continuation, XML-escaped. */
export function hookPromptMessage(continuations: StopOutcome["continuations"]): string {
  return continuations.map((c) =>
    `<hook_prompt hook_run_id="${escapeXml(c.runId)}">${escapeXml(c.reason)}</hook_prompt>`
  )
    .join("\n");
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
