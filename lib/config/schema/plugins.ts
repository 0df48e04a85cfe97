import { z } from "../../shared/mod.ts";

// Owned by the plugins subsystem. `[plugins."<plugin>@<marketplace>"] enabled` (default true; read only
// from the user layer and -c flags) and `[marketplaces.<name>]` written by `trellis plugin marketplace add`.
const approvalMode = () => z.enum(["auto", "prompt", "approve"]);

/** Codex's per-plugin MCP overrides: only enablement, approval modes and tool filters (PL-10). */
const pluginEntrySchema = () =>
  z.strictObject({
    enabled: z.optional(z.boolean()),
    /** Run this plugin's hooks in `shell`'s sandbox profile (default false: as the user, HK-6). */
    hooks_sandbox: z.optional(z.boolean()),
    mcp_servers: z.optional(z.record(
      z.string(),
      z.strictObject({
        enabled: z.optional(z.boolean()),
        default_tools_approval_mode: z.optional(approvalMode()),
        tools: z.optional(
          z.record(z.string(), z.strictObject({ approval_mode: z.optional(approvalMode()) })),
        ),
        enabled_tools: z.optional(z.array(z.string())),
        disabled_tools: z.optional(z.array(z.string())),
        /** The sandbox profile of this plugin server, chosen by the user (#17 item 2). */
        sandbox: z.optional(z.enum(["none", "read-only", "workspace-write"])),
        sandbox_network: z.optional(z.boolean()),
        sandbox_writable: z.optional(z.array(z.string().check(z.minLength(1)))),
      }),
    )),
  });

const marketplaceEntrySchema = () =>
  z.strictObject({
    /** Absolute path of a local marketplace root, or a git URL. */
    source: z.string(),
    kind: z.optional(z.enum(["local", "git"])),
    /** Git branch, tag or commit to check out. */
    ref: z.optional(z.string()),
  });

export const pluginsSections = {
  plugins: () => z.record(z.string(), pluginEntrySchema()),
  marketplaces: () => z.record(z.string(), marketplaceEntrySchema()),
};
