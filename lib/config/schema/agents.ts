import { z } from "../../shared/mod.ts";

/**
 * `[agents]` (#22): how many subagents run at once and how deep they nest, Codex's key names. Each
 * has its default in lib/agents (`agentLimits`), so a layer's errors name only what it wrote.
 */
const agentsSchema = () =>
  z.strictObject({
    /** Subagents running at once in one session (default 6); a spawn beyond it is refused. */
    max_threads: z.optional(z.number().check(z.int(), z.minimum(1))),
    /** How deep subagents nest (default 1: a subagent cannot spawn). */
    max_depth: z.optional(z.number().check(z.int(), z.minimum(0))),
    /** A subagent still running after this many seconds is stopped (default 1800). */
    job_max_runtime_sec: z.optional(z.number().check(z.minimum(0.001))),
    /** Which face the model sees: "claude" (Agent/Task) is the only one built; "auto" means it. */
    tool_style: z.optional(z.enum(["auto", "codex", "claude"])),
    /** Read Codex's role files, `$CODEX_HOME/agents` and a project's `.codex/agents` (default true). */
    codex: z.optional(z.boolean()),
    /** Read Claude Code's `.claude/agents` (project) and `~/.claude/agents` (default true). */
    claude_code: z.optional(z.boolean()),
    /**
     * A frontmatter `model:` alias (`sonnet`, `opus`, `haiku`, or any bare word) → the model id it
     * runs on. An alias with no entry runs on the session's model, with a warning naming it.
     */
    model_aliases: z.optional(z.record(z.string(), z.string().check(z.minLength(1)))),
  });

export const agentsSections = {
  agents: agentsSchema,
};
