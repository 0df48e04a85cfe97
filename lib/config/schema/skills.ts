import { z } from "zod";

/**
 * `[skills]`: Codex's keys plus Trellis's own. A `[[skills.config]]` entry with both or neither of
 * `path`/`name` is not a schema error: the skills service ignores it with a warning, as Codex does.
 */
const skillConfigRuleSchema = () =>
  z.strictObject({
    path: z.string().optional(),
    name: z.string().optional(),
    enabled: z.boolean(),
  });

const skillsSchema = () =>
  z.strictObject({
    /** Inject the `<skills_instructions>` catalog (default true). */
    include_instructions: z.boolean().optional(),
    bundled: z.strictObject({
      /** Materialise and load the bundled system skills (default true). */
      enabled: z.boolean().optional(),
    }).optional(),
    /** Enable/disable rules; read only from the user config and `-c` flags. */
    config: z.array(skillConfigRuleSchema()).optional(),
    /** More skill roots (scope User); `~/` expands to $HOME, relative paths resolve against cwd. */
    extra_roots: z.array(z.string()).optional(),
    /** Also read Claude Code's `.claude/skills` (project) and `~/.claude/skills` (default true). */
    claude_code: z.boolean().optional(),
    /** Throttle of the skills watcher in milliseconds (default 10,000). */
    watch_throttle_ms: z.number().int().min(0).optional(),
  });

export const skillsSections = {
  skills: skillsSchema,
};
