import type { TrellisPaths } from "../config/mod.ts";
import { keepPrivate, tightenPrivateTree } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";

/** The directories Trellis makes in `$TRELLIS_HOME`: the ones an earlier version made 0755. */
const OWNED_DIRS = [
  "sessions",
  "checkpoints",
  "logs",
  "cache",
  "hook_outputs",
  "history",
  "credentials",
  "plugins",
  "skills",
] as const;

/**
 * `$TRELLIS_HOME` is private (#20 item 13): from here on every directory the file system makes in
 * it is 0700 and every file 0600. A home (or one of the directories above) left group- or
 * world-accessible by an earlier version is set to 0700, with one warning naming what changed; a
 * home that is `/` or holds `$HOME` is left alone (its files would take the workspace's modes).
 */
export function keepHomePrivate(paths: TrellisPaths, options: { tighten?: boolean } = {}): Diagnostic[] {
  if (!keepPrivate(paths.home, paths.userHome) || !options.tighten) return [];
  const changed = tightenPrivateTree(paths.home, OWNED_DIRS);
  if (changed.length === 0) return [];
  const list = changed.map((c) => `${c.path} (was ${c.mode.toString(8).padStart(4, "0")})`).join(", ");
  return [warning(
    `Made ${list} private (0700): transcripts, logs and credentials in $TRELLIS_HOME are for your user alone`,
    { file: paths.home },
  )];
}
