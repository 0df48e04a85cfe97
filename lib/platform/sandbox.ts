/**
 * The sandbox: bubblewrap profiles for any command (`sandboxArgv`), the self-check that decides
 * whether they hold here (`detectSandbox`), and the real-path resolution every permission check uses.
 */
export { canonicalPath } from "./canonical_path.ts";
export { detectSandbox, type SandboxStatus } from "./sandbox_probe.ts";
export {
  removeLeftoverPlaceholders,
  sandboxArgv,
  type SandboxPolicy,
  sandboxProfileProblem,
  type SandboxRuntime,
} from "./sandbox_profile.ts";
export { holdSandboxMounts } from "./sandbox_placeholders.ts";
export {
  gitDirsOf,
  HOME_PROTECTED_PATHS,
  isWithinPath,
  PROTECTED_NAMES,
  SandboxProfileError,
} from "./sandbox_protected.ts";
export { TRELLIS_HOME_SECRETS } from "./sandbox_masks.ts";
