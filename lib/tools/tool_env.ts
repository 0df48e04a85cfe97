import type { Platform, SandboxStatus } from "../platform/mod.ts";
import type { FileChangeRecorder, UserQuestioner } from "../shared/mod.ts";
import type { PermissionProfile } from "./permission_profile.ts";
import type { WebFetchLimits } from "./web_page.ts";
import type { EditorFiles } from "./editor_files.ts";

/** What the everyday tools (#23 item 3) read beyond the file tools' environment. */
export interface EverydaySettings {
  /** `[tools.web_fetch]`: caps, allow list, and the addresses a test may reach. */
  webFetch: WebFetchLimits & { allowedDomains: readonly string[] };
  /** The most bytes one image may have (view_image, attachments). */
  imageMaxBytes: number;
  /** Asks the person (the interactive mode); absent: request_user_input refuses. */
  questioner?: UserQuestioner;
}

/** What every built-in tool is built from; one per session. */
export interface ToolEnv {
  platform: Platform;
  profile: PermissionProfile;
  sandbox: SandboxStatus;
  outputMaxBytes: number;
  everyday: EverydaySettings;
  /** An editor's files and terminal (`trellis acp`); absent: the disk and the platform's processes. */
  editor?: EditorFiles;
  /** Records each file's state before the file tools change it (#25 item 2); absent: nothing kept. */
  changes?: FileChangeRecorder;
}
