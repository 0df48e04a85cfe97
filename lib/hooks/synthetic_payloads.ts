import type { HookEventName } from "./hook_events.ts";

/**
 * The event fields of a synthetic firing (`hooks test`, `hooks doctor`), beyond the common ones:
 * the shape Claude Code sends for that event, with plausible values.
 */
export function syntheticFields(event: HookEventName, cwd: string): Record<string, unknown> {
  const tool = { tool_name: "Bash", tool_input: { command: "true" }, tool_use_id: "hooks-test" };
  switch (event) {
    case "PreToolUse":
    case "PermissionRequest":
      return tool;
    case "PostToolUse":
      return { ...tool, tool_response: { output: "" } };
    case "SessionStart":
      return { source: "startup" };
    case "UserPromptSubmit":
      return { prompt: "hello" };
    case "Stop":
    case "SubagentStop":
      return { stop_hook_active: false, last_assistant_message: null };
    case "PreCompact":
      return { trigger: "manual", custom_instructions: "" };
    case "PostCompact":
      return { trigger: "manual", compact_summary: "" };
    case "SubagentStart":
      return { agent_id: "agent-test", agent_type: "general" };
    case "SessionEnd":
      return { reason: "other" };
    case "Notification":
      return { message: "Trellis needs your permission to use Bash", notification_type: "permission_prompt" };
    case "PostToolUseFailure":
      return { ...tool, error: "command exited with code 1", is_interrupt: false };
    case "UserPromptExpansion":
      return {
        expansion_type: "slash_command",
        command_name: "review",
        command_args: "",
        command_source: "project",
        prompt: "/review",
      };
    case "StopFailure":
      return {
        error: "server_error",
        error_details: "500 Internal Server Error",
        last_assistant_message: null,
      };
    case "PermissionDenied":
      return { ...tool, reason: "denied by rule" };
    case "PostToolBatch":
      return { tool_calls: [{ ...tool, tool_response: "" }] };
    case "Elicitation":
      return {
        mcp_server_name: "server",
        elicitation_id: "elicitation-test",
        message: "Which environment?",
        mode: "form",
        requested_schema: { type: "object", properties: { env: { type: "string" } } },
      };
    case "ElicitationResult":
      return {
        mcp_server_name: "server",
        elicitation_id: "elicitation-test",
        mode: "form",
        action: "accept",
        content: { env: "staging" },
      };
    case "InstructionsLoaded":
      return { file_path: `${cwd}/AGENTS.md`, memory_type: "Project", load_reason: "session_start" };
    case "ConfigChange":
      return { source: "user_settings", file_path: `${cwd}/.trellis/config.toml` };
    case "CwdChanged":
      return { old_cwd: cwd, new_cwd: cwd };
    case "Interrupt":
      return {};
  }
}
