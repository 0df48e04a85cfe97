import { isObject } from "./manifest.ts";

/**
 * A plugin's MCP server entries as written, for the MCP subsystem's one `.mcp.json` reader (which
 * expands variables, maps Claude Code and Codex keys and validates transports). Here only the file's
 * shape is checked: `{"mcpServers": {…}}` or a bare `{name: entry}` map (both occur in real
 * marketplaces), never an array.
 */
export function pluginMcpServers(
  raw: unknown,
  file: string,
  warn: (message: string) => void,
): { name: string; file: string; config: Record<string, unknown> }[] {
  if (!isObject(raw)) {
    const found = Array.isArray(raw) ? "an array" : raw === null ? "null" : `a ${typeof raw}`;
    warn(`ignoring ./${file}: expected an object of MCP servers, found ${found}`);
    return [];
  }
  const servers = isObject(raw.mcpServers) ? raw.mcpServers : raw;
  const out: { name: string; file: string; config: Record<string, unknown> }[] = [];
  for (const [name, value] of Object.entries(servers).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!isObject(value)) {
      warn(`ignoring MCP server "${name}" in ./${file}: expected an object`);
      continue;
    }
    out.push({ name, file, config: value });
  }
  return out;
}
