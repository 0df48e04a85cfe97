import * as path from "node:path";
import type { Workspace } from "./workspace.ts";

/** One thing an untrusted project holds that would load once it is trusted. */
export interface UntrustedPart {
  file: string;
  /** What it would start or load: "MCP servers", "hooks", "config". */
  what: "MCP servers" | "hooks" | "config";
}

/**
 * What trusting this workspace's project would start (#21 item 5): its `.trellis/` config layers,
 * `.mcp.json` and Claude Code's project servers, and its hooks — read from the notes the trust gate
 * leaves when it skips them, so the offer lists exactly what the gate held back. Empty when the
 * project is trusted or holds nothing the gate would skip.
 */
export async function untrustedParts(ws: Workspace): Promise<UntrustedPart[]> {
  if (ws.loaded.projectTrusted) return [];
  const [catalog, hooks] = await Promise.all([
    ws.mcpCatalog().catch(() => ({ diagnostics: [] })),
    ws.hooks().catch(() => ({ diagnostics: [] })),
  ]);
  const parts: UntrustedPart[] = [];
  const seen = new Set<string>();
  const add = (what: UntrustedPart["what"], file: string | undefined) => {
    if (!file || seen.has(`${what} ${file}`)) return;
    seen.add(`${what} ${file}`);
    parts.push({ what, file });
  };
  for (const d of ws.diagnostics) if (/not trusted/.test(d.message)) add("config", d.file);
  for (const d of catalog.diagnostics) if (/not trusted/.test(d.message)) add("MCP servers", d.file);
  for (const d of hooks.diagnostics) if (/not trusted/.test(d.message)) add("hooks", d.file);
  return parts;
}

/** `the MCP servers in .mcp.json, the hooks in .claude/settings.json`, paths relative to `root`. */
export function describeUntrusted(parts: UntrustedPart[], root: string): string {
  return parts.map((p) => {
    const file = p.file.startsWith(root + "/") ? path.relative(root, p.file) : p.file;
    return p.what === "config" ? `the config in ${file}` : `the ${p.what} in ${file}`;
  }).join(", ");
}
