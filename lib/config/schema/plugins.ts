import { z } from "zod";

// Owned by the plugins subsystem. `[plugins."<plugin>@<marketplace>"] enabled` (default true; read only
// from the user layer and -c flags) and `[marketplaces.<name>]` written by `trellis plugin marketplace add`.
const approvalMode = () => z.enum(["auto", "prompt", "approve"]);

/** Codex's per-plugin MCP overrides: only enablement, approval modes and tool filters (PL-10). */
const pluginEntrySchema = () =>
  z.strictObject({
    enabled: z.boolean().optional(),
    mcp_servers: z.record(
      z.string(),
      z.strictObject({
        enabled: z.boolean().optional(),
        default_tools_approval_mode: approvalMode().optional(),
        tools: z.record(z.string(), z.strictObject({ approval_mode: approvalMode().optional() })).optional(),
        enabled_tools: z.array(z.string()).optional(),
        disabled_tools: z.array(z.string()).optional(),
      }),
    ).optional(),
  });

const marketplaceEntrySchema = () =>
  z.strictObject({
    /** Absolute path of a local marketplace root, or a git URL. */
    source: z.string(),
    kind: z.enum(["local", "git"]).optional(),
    /** Git branch, tag or commit to check out. */
    ref: z.string().optional(),
  });

export const pluginsSections = {
  plugins: () => z.record(z.string(), pluginEntrySchema()),
  marketplaces: () => z.record(z.string(), marketplaceEntrySchema()),
};
