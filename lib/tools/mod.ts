/**
 * Built-in tools (read_file, list_dir, glob, grep, write_file, edit_file, shell, and the everyday
 * update_plan/TodoWrite, view_image, web_fetch/WebFetch, request_user_input) with permission checks:
 * file tools resolve real paths and judge them against the profile's roots; shell runs under
 * bubblewrap unless the sandbox mode is danger-full-access.
 *
 * @example
 * ```ts
 * import { createBuiltinTools, resolvePermissionProfile } from "./mod.ts";
 * import { loadConfig } from "../config/mod.ts";
 * import { detectSandbox, platform } from "../platform/mod.ts";
 * import { discardEvents } from "../shared/mod.ts";
 * const { config } = await loadConfig(platform.fs, { cwd: platform.cwd(), env: platform.env });
 * const profile = await resolvePermissionProfile(config, platform.cwd(), {
 *   fs: platform.fs,
 *   tempDir: platform.tempDir(),
 * });
 * const tools = createBuiltinTools({ platform, profile, sandbox: await detectSandbox(platform) });
 * const read = tools.find((t) => t.name === "read_file")!;
 * const args = read.parseArguments('{"path":"README.md"}');
 * const ctx = {
 *   callId: "c1",
 *   cwd: profile.workspace,
 *   signal: new AbortController().signal,
 *   emit: discardEvents,
 *   escalated: false,
 * };
 * if (read.approval(args, { cwd: profile.workspace }).kind === "none") {
 *   console.log((await read.run(args, ctx)).output);
 * }
 * ```
 * @module
 */
export {
  builtinToolsForListing,
  createBuiltinTools,
  deriveBuiltinParameters,
  toolEnv,
} from "./builtin_tools.ts";
export { allEverydayTools, createEverydayTools, DEFAULT_EVERYDAY_SETTINGS } from "./everyday_tools.ts";
export type { EditorFiles } from "./editor_files.ts";
export { IMAGE_EXTENSIONS, readImageFile } from "./image_file.ts";
export type { BuiltinToolsOptions } from "./builtin_tools.ts";
export type { BuiltinTool } from "./builtin_tool.ts";
export { resolvePermissionProfile } from "./permission_profile.ts";
export type { PermissionProfile } from "./permission_profile.ts";
export { checkPathAccess, isWithin } from "./path_access.ts";
export { isKnownSafeCommand } from "./known_safe_command.ts";
export { confinedPolicy, type Confinement, sandboxPolicyFor } from "./sandbox_policy.ts";
export { truncateOutput } from "./output_budget.ts";
export { globMatcher } from "./glob_pattern.ts";
export { SessionToolSets, type ToolSetChoice } from "./tool_set.ts";
export { MAX_LIVE_EXEC_SESSIONS } from "./exec_sessions.ts";
export { commandArgv, commandSubject, DEFAULT_SHELL_TIMEOUT_MS } from "./shell_tool.ts";
