/**
 * Keys of Codex's `config.toml` that Trellis recognises but does not use (Codex's config reference,
 * `codex-rs/core/src/config`): a Codex config copied to ~/.trellis/config.toml gets one summary line
 * naming them instead of one "Unknown config key" warning each (#16 item 8). A key missing here is
 * still only a warning. Keys Trellis does use (model, approval_policy, mcp_servers, …) are in its
 * schema and never reach this table.
 */
export const CODEX_UNUSED_KEYS: ReadonlySet<string> = new Set([
  "analytics",
  "approvals_reviewer",
  "check_for_update_on_startup",
  "chatgpt_base_url",
  "cli_auth_credentials_store",
  "developer_instructions",
  "disable_paste_burst",
  "disable_response_storage",
  "experimental_compact_prompt_file",
  "experimental_instructions_file",
  "experimental_resume",
  "experimental_use_exec_command_tool",
  "experimental_use_freeform_apply_patch",
  "experimental_use_rmcp_client",
  "features",
  "feedback",
  "file_opener",
  "forced_chatgpt_workspace_id",
  "forced_login_method",
  "ghost_snapshot",
  "hide_agent_reasoning",
  "history",
  "include_apply_patch_tool",
  "include_plan_tool",
  "include_view_image_tool",
  "mcp_oauth_credentials_store",
  "model_instructions_file",
  "model_max_output_tokens",
  "model_reasoning_summary",
  "model_reasoning_summary_format",
  "model_supports_reasoning_summaries",
  "model_verbosity",
  "notice",
  "notify",
  "oss_provider",
  "personality",
  "preferred_auth_method",
  "responses_originator_header_internal_override",
  "review_model",
  "shell_environment_policy",
  "show_raw_agent_reasoning",
  "tool_output_token_limit",
  "tui",
  "use_experimental_reasoning_summary",
  "use_experimental_streamable_shell_tool",
  "web_search",
  "windows",
  "windows_wsl_setup_acknowledged",
]);

/** True for `key` or `profiles.<name>.key` when `key` is a Codex setting Trellis does not use. */
export function isCodexUnusedKey(keyPath: readonly (string | number)[]): boolean {
  if (keyPath.length === 1) return CODEX_UNUSED_KEYS.has(String(keyPath[0]));
  return keyPath.length === 3 && keyPath[0] === "profiles" && CODEX_UNUSED_KEYS.has(String(keyPath[2]));
}
