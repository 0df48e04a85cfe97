import {
  extractFrontmatter,
  type FullYamlParse,
  parseFrontmatterYaml,
  sanitizeSingleLine,
} from "../shared/mod.ts";
import type { AgentDefinition, AgentMcpServer, AgentOrigin } from "./types.ts";

/** Claude Code's agent frontmatter fields that Trellis applies. */
const APPLIED = new Set([
  "name",
  "description",
  "tools",
  "disallowedTools",
  "model",
  "color",
  "maxTurns",
  "effort",
  "permissionMode",
  "skills",
  "mcpServers",
  "hooks",
]);
/** Claude Code's `permissionMode` values (lib/agents/permission_mode.ts maps each). */
export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", "auto"];
/** Claude Code's fields Trellis reads and names, but does not apply yet. */
const NOT_APPLIED = new Set([
  "memory",
  "background",
  "isolation",
  "initialPrompt",
]);

export type ParsedAgent =
  | { ok: true; definition: AgentDefinition; unknownFields: string[] }
  | { ok: false; error: string };

/**
 * One agent file's text as a definition: the frontmatter parsed by the reader skills use (fast path,
 * then the `yaml` library), the body as the system prompt. `name` and `description` are required, as
 * in Claude Code; an unknown field is returned so the caller names it once.
 */
export function parseAgentFile(
  text: string,
  where: { origin: AgentOrigin; path: string; plugin?: { id: string; namespace: string } },
  parseYaml: FullYamlParse,
): ParsedAgent {
  const split = extractFrontmatter(text);
  if (!split.ok) return { ok: false, error: split.error };
  const parsed = parseFrontmatterYaml(split.yaml, parseYaml);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const fields = parsed.value;
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    return { ok: false, error: "the frontmatter is not a mapping of fields" };
  }
  const f = fields as Record<string, unknown>;
  const name = typeof f.name === "string" ? sanitizeSingleLine(f.name) : "";
  if (name === "") return { ok: false, error: "missing field `name`" };
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) {
    return { ok: false, error: `\`name\` "${name}" must be letters, digits, '-', '_' or '.'` };
  }
  const description = typeof f.description === "string" ? sanitizeSingleLine(f.description) : "";
  if (description === "") return { ok: false, error: "missing field `description`" };
  const tools = toolList(f.tools, "tools");
  if (typeof tools === "string") return { ok: false, error: tools };
  const disallowed = toolList(f.disallowedTools, "disallowedTools");
  if (typeof disallowed === "string") return { ok: false, error: disallowed };
  if (f.model !== undefined && typeof f.model !== "string") {
    return { ok: false, error: "`model` must be a string" };
  }
  const maxTurns = f.maxTurns;
  if (
    maxTurns !== undefined && (typeof maxTurns !== "number" || !Number.isInteger(maxTurns) || maxTurns < 1)
  ) {
    return { ok: false, error: "`maxTurns` must be a whole number of at least 1" };
  }
  if (f.effort !== undefined && (typeof f.effort !== "string" || f.effort.trim() === "")) {
    return { ok: false, error: "`effort` must be a reasoning effort such as low, medium or high" };
  }
  const mode = f.permissionMode;
  if (mode !== undefined && (typeof mode !== "string" || !PERMISSION_MODES.includes(mode))) {
    return {
      ok: false,
      error: `\`permissionMode\` ${JSON.stringify(mode)} is not one of ${PERMISSION_MODES.join(", ")}`,
    };
  }
  const skills = toolList(f.skills, "skills");
  if (typeof skills === "string") return { ok: false, error: skills.replace("tool names", "skill names") };
  const servers = mcpServerList(f.mcpServers);
  if (typeof servers === "string") return { ok: false, error: servers };
  if (f.hooks !== undefined && (typeof f.hooks !== "object" || f.hooks === null || Array.isArray(f.hooks))) {
    return { ok: false, error: "`hooks` must be a mapping of events, as in settings.json" };
  }
  const keys = Object.keys(f);
  const definition: AgentDefinition = {
    name: where.plugin ? `${where.plugin.namespace}:${name}` : name,
    description,
    prompt: split.body.trim(),
    ...(tools !== undefined ? { tools } : {}),
    disallowedTools: disallowed ?? [],
    ...(typeof f.model === "string" && f.model.trim() !== "" ? { model: f.model.trim() } : {}),
    ...(typeof f.color === "string" ? { color: f.color } : {}),
    ...(typeof maxTurns === "number" ? { maxTurns } : {}),
    ...(typeof f.effort === "string" ? { effort: f.effort.trim() } : {}),
    ...(typeof mode === "string" ? { permissionMode: mode } : {}),
    skills: skills ?? [],
    mcpServers: servers,
    ...(f.hooks !== undefined ? { hooks: f.hooks } : {}),
    notApplied: keys.filter((k) => NOT_APPLIED.has(k)),
    origin: where.origin,
    path: where.path,
    ...(where.plugin ? { plugin: where.plugin.id } : {}),
  };
  return { ok: true, definition, unknownFields: keys.filter((k) => !APPLIED.has(k) && !NOT_APPLIED.has(k)) };
}

/** `tools: Read, Grep` (Claude Code's comma list) or a YAML list; absent → undefined. */
function toolList(value: unknown, field: string): string[] | undefined | string {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.split(",").map((t) => t.trim()).filter((t) => t !== "");
  if (Array.isArray(value) && value.every((t) => typeof t === "string")) {
    return value.map((t) => t.trim()).filter((t) => t !== "");
  }
  return `\`${field}\` must be a comma-separated string or a list of tool names`;
}

/**
 * Claude Code's `mcpServers`: a list whose items are a configured server's name or `{name: entry}`
 * (an inline `.mcp.json` entry); a mapping `{name: entry}` is read the same way.
 */
function mcpServerList(value: unknown): AgentMcpServer[] | string {
  if (value === undefined || value === null) return [];
  const bad = "`mcpServers` must be a list of server names or `name: {command …}` definitions";
  const items = Array.isArray(value) ? value : typeof value === "object" ? [value] : null;
  if (!items) return bad;
  const out: AgentMcpServer[] = [];
  for (const item of items) {
    if (typeof item === "string" && item.trim() !== "") out.push({ kind: "ref", name: item.trim() });
    else if (typeof item === "object" && item !== null && !Array.isArray(item)) {
      for (const [name, entry] of Object.entries(item)) out.push({ kind: "inline", name, entry });
    } else return bad;
  }
  return out;
}
