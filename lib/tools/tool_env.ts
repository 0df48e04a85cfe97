import type { Platform, SandboxStatus } from "../platform/mod.ts";
import type { PermissionProfile } from "./permission_profile.ts";

/** What every built-in tool is built from; one per session. */
export interface ToolEnv {
  platform: Platform;
  profile: PermissionProfile;
  sandbox: SandboxStatus;
  outputMaxBytes: number;
}
