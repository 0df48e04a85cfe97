/**
 * A subagent definition as Claude Code's `agents/*.md` files state it (#22 item 1): the frontmatter's
 * fields and the body, which is the subagent's system prompt.
 */

/** Where a definition was read from, lowest precedence first (a later origin wins a name clash). */
export const AGENT_ORIGINS = [
  "built-in",
  "plugin",
  "codex-user",
  "claude-user",
  "trellis-user",
  "codex-project",
  "claude-project",
  "trellis-project",
] as const;
export type AgentOrigin = typeof AGENT_ORIGINS[number];

export interface AgentDefinition {
  /** `name`, or `plugin:name` for a plugin's agent (as in Claude Code). */
  name: string;
  description: string;
  /** The system prompt (the file's body). */
  prompt: string;
  /** Claude Code tool names offered to the agent; undefined: every tool the parent has. */
  tools?: string[];
  disallowedTools: string[];
  /** `inherit`, an alias (`sonnet`, `opus`, `haiku`) or a model id; undefined means inherit. */
  model?: string;
  color?: string;
  /** Claude Code's `permissionMode` (`default`, `acceptEdits`, `plan`, `dontAsk`, `bypassPermissions`, `auto`). */
  permissionMode?: string;
  /** `skills`: skill names whose whole SKILL.md is preloaded into the child's context. */
  skills: string[];
  /** `mcpServers`: a configured server by name, or an inline definition only this agent's child sees. */
  mcpServers: AgentMcpServer[];
  /** `hooks`: the frontmatter's hooks, run only while this agent runs (`Stop` means SubagentStop). */
  hooks?: unknown;
  /** `maxTurns`: the most steps the agent's turn may take. */
  maxTurns?: number;
  /**
   * The reasoning effort of the agent's requests over the session's `model_reasoning_effort`:
   * Claude Code's `effort`, a Codex role's `model_reasoning_effort`, or spawn_agent's `reasoning_effort`.
   */
  effort?: string;
  /** Known Claude Code fields Trellis reads but does not apply yet (named by `agents show`). */
  notApplied: string[];
  origin: AgentOrigin;
  /** The file it came from; undefined for a built-in. */
  path?: string;
  /** The plugin it belongs to (its id), for a plugin's agent. */
  plugin?: string;
}

/** One `mcpServers` entry: `- github` (a configured server) or `- name: {command…}` (inline). */
export type AgentMcpServer =
  | { kind: "ref"; name: string }
  | { kind: "inline"; name: string; entry: unknown };

/** A folder of `*.md` definitions, or one plugin's agent files. */
export type AgentSource =
  | {
    origin: Exclude<AgentOrigin, "plugin" | "built-in">;
    dir: string;
    /**
     * A project folder's files as project trust approved them (path → the text checked): only
     * these load, from this text, never re-read from disk.
     */
    approved?: ReadonlyMap<string, string>;
  }
  | { origin: "plugin"; pluginId: string; namespace: string; files: string[] };
