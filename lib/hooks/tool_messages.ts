import type { StopOutcome, ToolHookInput } from "../shared/mod.ts";

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

/** Session-start notice for handlers that are new or changed since the user last trusted them ("" if none). */
export function reviewNotice(needsReview: number): string {
  if (needsReview <= 0) return "";
  return `${needsReview} hook${needsReview === 1 ? "" : "s"} need${
    needsReview === 1 ? "s" : ""
  } review: trellis hooks list`;
}
