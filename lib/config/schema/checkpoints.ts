import { z } from "../../shared/mod.ts";

/** The values `[checkpoints] shell` takes (#25 item 2). */
export const CHECKPOINT_SHELL_MODES = ["untracked", "snapshot"] as const;
export type CheckpointShellMode = typeof CHECKPOINT_SHELL_MODES[number];

/**
 * `[checkpoints]` (#25 item 2): the file tools' edits are recorded per turn so `trellis rewind` and
 * `/rewind` can put files back. `shell = "snapshot"` also copies the writable roots' files a shell
 * command changed (default "untracked": such changes are named as not restorable, as Claude Code does).
 */
const checkpointsSchema = () =>
  z.strictObject({
    /** Record checkpoints at all (default true). */
    enabled: z.optional(z.boolean()),
    shell: z.optional(z.enum(CHECKPOINT_SHELL_MODES)),
  });

export const checkpointsSections = {
  checkpoints: checkpointsSchema,
};
