import { z } from "../../shared/mod.ts";

/**
 * `[skills]`: Codex's keys plus Trellis's own. A `[[skills.config]]` entry with both or neither of
 * `path`/`name` is not a schema error: the skills service ignores it with a warning, as Codex does.
 */
const skillConfigRuleSchema = () =>
  z.strictObject({
    path: z.optional(z.string()),
    name: z.optional(z.string()),
    enabled: z.boolean(),
  });

const skillsSchema = () =>
  z.strictObject({
    /** Inject the `<skills_instructions>` catalog (default true). */
    include_instructions: z.optional(z.boolean()),
    bundled: z.optional(z.strictObject({
      /** Materialise and load the bundled system skills (default true). */
      enabled: z.optional(z.boolean()),
    })),
    /** Enable/disable rules; read only from the user config and `-c` flags. */
    config: z.optional(z.array(skillConfigRuleSchema())),
    /** More skill roots (scope User); `~/` expands to $HOME, relative paths resolve against cwd. */
    extra_roots: z.optional(z.array(z.string())),
    /** Also read Claude Code's `.claude/skills` (project) and `~/.claude/skills` (default true). */
    claude_code: z.optional(z.boolean()),
    /** Throttle of the skills watcher in milliseconds (default 10,000). */
    watch_throttle_ms: z.optional(z.number().check(z.int(), z.minimum(0))),
  });

export const skillsSections = {
  skills: skillsSchema,
};
