/**
 * Checkpoints and rewind (#25 item 2): each turn keeps the state of every file the file tools
 * change, before its first change in that turn, in a content store under
 * `$TRELLIS_HOME/checkpoints/<session id>/`; a rewind puts files back to their state before a turn.
 *
 * @example
 * ```ts
 * import { CheckpointStore, checkpointDir, planRewind } from "./mod.ts";
 * import { platform } from "../platform/mod.ts";
 * const store = new CheckpointStore(platform.fs, checkpointDir("/home/me/.trellis", "20261202-abcd"));
 * const plan = planRewind(platform.fs, await store.records(), 2);
 * console.log(plan.restore.map((r) => r.path), plan.editedSince);
 * ```
 * @module
 */
export { checkpointDir, CheckpointStore } from "./checkpoint_store.ts";
export type { CheckpointRecord } from "./records.ts";
export { SessionCheckpoints } from "./session_checkpoints.ts";
export { applyRewind, planRewind } from "./rewind_files.ts";
export type { FileRestore, RewindOutcome, RewindPlan } from "./rewind_files.ts";
export { removeOrphanCheckpoints } from "./expiry.ts";
