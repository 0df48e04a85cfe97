import { z } from "zod";

// Owned by the plugins subsystem. `[plugins."<plugin>@<marketplace>"] enabled` (default true; read only
// from the user layer and -c flags) and `[marketplaces.<name>]` written by `trellis plugin marketplace add`.
export const pluginEntrySchema = z.strictObject({
  enabled: z.boolean().optional(),
});

export const marketplaceEntrySchema = z.strictObject({
  /** Absolute path of a local marketplace root, or a git URL. */
  source: z.string(),
  kind: z.enum(["local", "git"]).optional(),
  /** Git branch, tag or commit to check out. */
  ref: z.string().optional(),
});

export const pluginsSchema = z.record(z.string(), pluginEntrySchema);
export const marketplacesSchema = z.record(z.string(), marketplaceEntrySchema);

export const pluginsShape = {
  plugins: pluginsSchema.optional(),
  marketplaces: marketplacesSchema.optional(),
};
