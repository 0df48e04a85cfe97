import { type CheckpointShellMode, DEFAULT_CHECKPOINTS, type TrellisConfig } from "../config/mod.ts";
import {
  checkpointDir,
  CheckpointStore,
  removeOrphanCheckpoints,
  SessionCheckpoints,
} from "../checkpoints/mod.ts";
import { canonicalPath, type Platform } from "../platform/mod.ts";
import type { PermissionProfile } from "../tools/mod.ts";

/**
 * A session's checkpoint recorder from `[checkpoints]` (#25 item 2), or null when `enabled = false`.
 * Opening one also removes the checkpoints of sessions whose transcript is gone: they expire with it.
 */
export async function openCheckpoints(options: {
  platform: Platform;
  config: TrellisConfig;
  home: string;
  sessionId: string;
  profile: PermissionProfile;
}): Promise<SessionCheckpoints | null> {
  const { platform, config, home, sessionId, profile } = options;
  const settings = { ...DEFAULT_CHECKPOINTS, ...config.checkpoints };
  await removeOrphanCheckpoints(platform.fs, home);
  if (!settings.enabled) return null;
  // The temp dir is writable but no one's work: a snapshot walks the workspace and the configured roots.
  const temp = canonicalPathQuietly(platform.tempDir());
  const roots = [profile.workspace, ...profile.writableRoots].filter((r) => r !== temp);
  return new SessionCheckpoints({
    fs: platform.fs,
    store: new CheckpointStore(platform.fs, checkpointDir(home, sessionId)),
    shell: settings.shell as CheckpointShellMode,
    writableRoots: [...new Set(roots)],
  });
}

function canonicalPathQuietly(dir: string): string {
  try {
    return canonicalPath(dir);
  } catch {
    return dir;
  }
}
