import { z } from "../../shared/mod.ts";

/**
 * `[compat]`: one switch per file or folder of another agent that Trellis reads in place, each on
 * by default. Claude Code's settings hooks, `.claude/skills` and CLAUDE.md keep their own switches
 * (`[hooks] claude_code`, `[skills] claude_code`, `project_doc_claude_md`): those cover a project's
 * `.claude/` too, not only the user's files.
 */
const compatSchema = () =>
  z.strictObject({
    /** `$CODEX_HOME/config.toml`: its `[mcp_servers]` and `[hooks]` (nothing else). */
    codex_config: z.optional(z.boolean()),
    /** `$CODEX_HOME/hooks.json`. */
    codex_hooks: z.optional(z.boolean()),
    /** `$CODEX_HOME/skills` (Codex's user skills root). */
    codex_skills: z.optional(z.boolean()),
    /** `$CODEX_HOME/AGENTS.override.md`, else `AGENTS.md`: the Codex user's standing instructions. */
    codex_agents_md: z.optional(z.boolean()),
    /** `~/.claude.json`: user `mcpServers` and this project's `projects["<path>"].mcpServers`. */
    claude_json: z.optional(z.boolean()),
    /** Claude Code plugins installed under `~/.claude/plugins` and enabled in its settings. */
    claude_plugins: z.optional(z.boolean()),
    /**
     * Claude Code's `permissions` (`allow`, `ask`, `deny`) in `~/.claude/settings.json` and a
     * trusted project's `.claude/settings*.json`.
     */
    claude_permissions: z.optional(z.boolean()),
    /**
     * Gemini CLI's hooks (#24 item 3): `~/.gemini/settings.json`, a trusted project's
     * `.gemini/settings.json`, and installed extensions under `~/.gemini/extensions/`.
     */
    gemini: z.optional(z.boolean()),
    /** GitHub Copilot CLI's hook files: `~/.copilot/hooks/*.json` and a trusted project's `.github/hooks/*.json`. */
    copilot: z.optional(z.boolean()),
  });

export const compatSections = {
  compat: compatSchema,
};

/** The names of the `[compat]` switches. */
export type CompatSwitch =
  | "codex_config"
  | "codex_hooks"
  | "codex_skills"
  | "codex_agents_md"
  | "claude_json"
  | "claude_plugins"
  | "claude_permissions"
  | "gemini"
  | "copilot";
