import type { CapabilitySummary } from "./plugin_types.ts";

/**
 * The developer-message text that tells the model which plugins are active and what they bring.
 * Hooks are never mentioned: they are policy, not capabilities the model can use.
 */
export function renderPluginSummaries(summaries: CapabilitySummary[]): string | null {
  if (summaries.length === 0) return null;
  const lines = ["<plugins_instructions>", "## Plugins", "Active plugins and what they provide:"];
  for (const s of summaries) {
    const parts: string[] = [];
    if (s.hasSkills) parts.push("skills");
    if (s.mcpServerNames.length) parts.push(`MCP servers: ${s.mcpServerNames.join(", ")}`);
    if (s.appConnectorIds.length) parts.push(`apps: ${s.appConnectorIds.join(", ")}`);
    const about = s.description ? ` — ${s.description}` : "";
    lines.push(
      `- ${s.displayName} (\`${s.configName}\`)${about}${parts.length ? ` [${parts.join("; ")}]` : ""}`,
    );
  }
  lines.push("</plugins_instructions>");
  return lines.join("\n");
}
