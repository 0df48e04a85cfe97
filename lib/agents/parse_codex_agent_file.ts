import { parse as parseToml } from "smol-toml";
import type { AgentDefinition, AgentOrigin } from "./types.ts";
import type { ParsedAgent } from "./parse_agent_file.ts";

/** Codex's own role fields; every other key is a config.toml key the role layers over the session's. */
const ROLE_FIELDS = new Set([
  "name",
  "description",
  "nickname_candidates",
  "developer_instructions",
  "model",
  "model_reasoning_effort",
]);

/**
 * One Codex agent role file (`$CODEX_HOME/agents/**\/*.toml`, a project's `.codex/agents/*.toml`),
 * as Codex reads it (codex-rs/core/src/config/agent_roles.rs): a TOML table with `name`,
 * `description` and `developer_instructions` required, `nickname_candidates` optional, and any
 * config.toml key beside them. Trellis runs the role with `developer_instructions` as its system
 * prompt, `model` as its model, `model_reasoning_effort` as its effort and the parent's tools (Codex roles have no tool list); the other
 * config keys are named as not applied.
 */
export function parseCodexAgentFile(text: string, where: { origin: AgentOrigin; path: string }): ParsedAgent {
  let table: Record<string, unknown>;
  try {
    table = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, error: `invalid TOML: ${(error as Error).message.split("\n")[0]}` };
  }
  const text_ = (key: string) => typeof table[key] === "string" ? (table[key] as string).trim() : "";
  const name = text_("name");
  if (name === "") return { ok: false, error: "must define a non-empty `name`" };
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) {
    return { ok: false, error: `\`name\` "${name}" must be letters, digits, '-', '_' or '.'` };
  }
  const description = text_("description");
  if (description === "") return { ok: false, error: "must define a non-empty `description`" };
  const instructions = text_("developer_instructions");
  if (instructions === "") return { ok: false, error: "must define a non-empty `developer_instructions`" };
  const model = text_("model");
  const effort = text_("model_reasoning_effort");
  const definition: AgentDefinition = {
    name,
    description,
    prompt: instructions,
    disallowedTools: [],
    ...(model ? { model } : {}),
    ...(effort ? { effort } : {}),
    notApplied: Object.keys(table).filter((k) => !ROLE_FIELDS.has(k)),
    skills: [],
    mcpServers: [],
    origin: where.origin,
    path: where.path,
  };
  return { ok: true, definition, unknownFields: [] };
}
