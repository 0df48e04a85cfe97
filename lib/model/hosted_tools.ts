/**
 * The provider-run tools `tools.web_search` turns on (#23 item 3), as each wire declares them.
 * Chat Completions has no hosted search: nothing is declared there (README says so).
 */
import type { HostedTools } from "../shared/mod.ts";

/** Responses: `{type:"web_search"}` as Codex 0.171 sends it (`external_web_access` false when cached). */
export function hostedResponsesTools(hosted: HostedTools | undefined): Record<string, unknown>[] {
  if (!hosted?.webSearch) return [];
  return [{ type: "web_search", external_web_access: hosted.webSearch === "live" }];
}

/**
 * Messages: Anthropic's server tool `web_search_20250305`, declared among the tools; the API runs
 * the searches and returns `server_tool_use` / `web_search_tool_result` blocks (for the Messages wire).
 */
export function hostedMessagesTools(hosted: HostedTools | undefined): Record<string, unknown>[] {
  if (!hosted?.webSearch) return [];
  return [{ type: "web_search_20250305", name: "web_search", max_uses: 5 }];
}
