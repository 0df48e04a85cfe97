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
    // A table of tables, each checked by the hooks loader: a record schema would parse each of its
    // keys and values (one per hook, 90 of them cost 0.23 ms of a cold start in the binary).
    state: z.optional(z.custom<Record<string, unknown>>(isTable, { message: "expected a table" })),
    /**
     * URLs `http` hooks may be sent to (`*` matches any run of characters), read from the user's own
     * config only (#24 item 2): none set, no http hook runs.
     */
    allowed_http_hook_urls: z.optional(z.array(z.string())),
  });

function isTable(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export const hooksSections = {
  hooks: hooksSchema,
};
