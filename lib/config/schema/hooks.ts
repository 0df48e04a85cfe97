import { z } from "../../shared/mod.ts";

/**
 * `[hooks]`: event arrays in Codex's TOML shape (`[[hooks.PreToolUse]]`, `[[hooks.PreToolUse.hooks]]`),
 * per-handler state (`[hooks.state."<key>"] enabled / trusted_hash`) and the `claude_code` switch
 * (default true). Event arrays and state entries stay `unknown` on purpose: the hooks loader checks
 * them per source and per entry, so one malformed group is a warning there, never a config error
 * that stops every command.
 */
const hooksSchema = () =>
  z.looseObject({
    /** Read Claude Code's `hooks` from `.claude/settings*.json` and `~/.claude/settings.json`. */
    claude_code: z.optional(z.boolean()),
    /** "shell": run every hook in `shell`'s sandbox profile. Default "none": hooks run as the user (HK-6). */
    sandbox: z.optional(z.enum(["none", "shell"])),
    state: z.optional(z.record(z.string(), z.unknown())),
    /**
     * URLs `http` hooks may be sent to (`*` matches any run of characters), read from the user's own
     * config only (#24 item 2): none set, no http hook runs.
     */
    allowed_http_hook_urls: z.optional(z.array(z.string())),
  });

export const hooksSections = {
  hooks: hooksSchema,
};
