import { z } from "zod";

// Owned by the plugins subsystem: `[plugins."<plugin>@<marketplace>"]` and marketplace settings.
export const pluginsSchema = z.record(z.string(), z.unknown());
export const pluginsShape = {
  plugins: pluginsSchema.optional(),
};
