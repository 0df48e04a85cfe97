import { z } from "zod";

// Owned by the hooks subsystem: `[hooks]` (events, state) and the Claude Code compatibility switch.
export const hooksSchema = z.record(z.string(), z.unknown());
export const hooksShape = {
  hooks: hooksSchema.optional(),
};
