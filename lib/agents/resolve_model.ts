import type { TrellisConfig } from "../config/mod.ts";
import type { AgentDefinition } from "./types.ts";

/** Claude Code's model aliases for a subagent (`model: sonnet`); any other bare word is an alias too. */
export const CLAUDE_MODEL_ALIASES = ["sonnet", "opus", "haiku", "opusplan", "best", "default"];

/** What `model:` resolves to: the model id, how it was decided, and a warning for an unmapped alias. */
export interface ResolvedAgentModel {
  model: string;
  /** `inherit`, `alias sonnet → ID`, `model id`, or `alias X (no mapping: the session's model)`. */
  how: string;
  warning?: string;
}

/**
 * A bare word of letters (`sonnet`, `haiku`, `fast`) is an alias: it is looked up in
 * `[agents.model_aliases]`; anything else (`gpt-5.1`, `claude-sonnet-4-5`, `org/model`) is a model id
 * sent as written. An alias without a mapping never reaches the provider as a model id (it would
 * fail there): the child runs on the session's model and the warning says how to map it.
 */
export function resolveAgentModel(
  definition: Pick<AgentDefinition, "model" | "name" | "path">,
  aliases: NonNullable<TrellisConfig["agents"]>["model_aliases"] | undefined,
  parentModel: string,
): ResolvedAgentModel {
  const setting = definition.model;
  if (!setting || setting === "inherit") return { model: parentModel, how: "inherit" };
  const mapped = aliases?.[setting];
  if (mapped !== undefined) return { model: mapped, how: `alias ${setting} → ${mapped}` };
  if (!/^[A-Za-z]+$/.test(setting)) return { model: setting, how: "model id" };
  const known = CLAUDE_MODEL_ALIASES.includes(setting) ? "" : " (not one of Claude Code's aliases either)";
  return {
    model: parentModel,
    how: `alias ${setting} (no mapping: the session's model)`,
    warning: `Agent "${definition.name}"${definition.path ? ` (${definition.path})` : ""}: model alias ` +
      `"${setting}"${known} has no entry in [agents.model_aliases]; it runs on the session's model ` +
      `(set agents.model_aliases.${setting} = "MODEL-ID")`,
  };
}
