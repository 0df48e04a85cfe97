import * as path from "node:path";
import { isObject } from "./manifest.ts";

const SERVER_NAME = /^[a-zA-Z0-9_-]+$/;
const TRANSPORT_TYPES = ["http", "streamable_http", "streamable-http", "stdio"];

/**
 * A plugin's MCP servers as raw Codex-shape tables for the MCP subsystem (which validates transport):
 * the `type` key dropped, `${PLUGIN_ROOT}`-style variables expanded, a relative cwd anchored at the
 * plugin root.
 */
export function projectMcpServers(
  raw: unknown,
  ctx: { root: string; dataDir: string },
  warn: (message: string) => void,
): { name: string; config: Record<string, unknown> }[] {
  if (!isObject(raw)) {
    warn("ignoring MCP servers: expected an object");
    return [];
  }
  const servers = isObject(raw.mcpServers) ? raw.mcpServers : raw;
  const vars: Record<string, string> = {
    PLUGIN_ROOT: ctx.root,
    CLAUDE_PLUGIN_ROOT: ctx.root,
    PLUGIN_DATA: ctx.dataDir,
    CLAUDE_PLUGIN_DATA: ctx.dataDir,
  };
  const out: { name: string; config: Record<string, unknown> }[] = [];
  for (const [name, value] of Object.entries(servers).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!SERVER_NAME.test(name) || !isObject(value)) {
      warn(`skipping MCP server "${name}": invalid name or not an object`);
      continue;
    }
    const config = expand(structuredClone(value), vars) as Record<string, unknown>;
    if (typeof config.type === "string" && TRANSPORT_TYPES.includes(config.type)) delete config.type;
    if (isObject(config.oauth) && "callbackPort" in config.oauth) {
      delete config.oauth.callbackPort;
      warn(`MCP server "${name}": ignoring oauth.callbackPort`);
    }
    if (typeof config.cwd === "string" && !path.isAbsolute(config.cwd)) {
      config.cwd = path.resolve(ctx.root, config.cwd);
    }
    out.push({ name, config });
  }
  return out;
}

function expand(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === "string") return value.replace(/\$\{([A-Z_]+)\}/g, (m, key) => vars[key] ?? m);
  if (Array.isArray(value)) return value.map((v) => expand(v, vars));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, vars)]));
  return value;
}
