import { z } from "zod";

// Owned by the skills subsystem: `[skills]`.
export const skillsSchema = z.record(z.string(), z.unknown());
export const skillsShape = {
  skills: skillsSchema.optional(),
};
