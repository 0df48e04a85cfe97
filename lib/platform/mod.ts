/**
 * The only door to the operating system: subprocesses (process-group kill, timeouts, abort),
 * file system, native file watching, HTTP listening, signals and the process itself, implemented
 * for Deno and for Bun and chosen once at start-up.
 *
 * @example
 * ```ts
 * import { platform, runCommand, childEnv } from "./mod.ts";
 * const result = await runCommand(platform, { cmd: ["true"], env: childEnv(platform.envAll()) });
 * ```
 * @module
 */
import { bunPlatform } from "./bun_platform.ts";
import { denoPlatform } from "./deno_platform.ts";
import type { Platform } from "./platform.ts";

export type {
  AppendHandle,
  AtomicWriteOptions,
  ChildProcess,
  DirEntry,
  ExitStatus,
  FileInfo,
  FileLock,
  FileSystem,
  HttpServer,
  LockOptions,
  Platform,
  SpawnOptions,
  TerminalIo,
  Watcher,
  WatchEvent,
} from "./platform.ts";
export { childEnv, DEFAULT_INHERITED_ENV } from "./child_env.ts";
export { createDigest, digestHex } from "./digest.ts";
export type { IncrementalDigest } from "./digest.ts";
export { namedFiles, namedFilesDigest } from "./named_files.ts";
export { readCacheJson, writeCacheJson } from "./cache_file.ts";
export type { NamedFile, NamedFilesOptions } from "./named_files.ts";
export { fileUrlOf, fileUrlToPath } from "./file_url.ts";
export { notStarted, runCommand } from "./run_command.ts";
export { browserCommand, openInBrowser } from "./open_browser.ts";
export { fileMode, isPrivatePath, keepPrivate, tightenPrivateTree } from "./private_tree.ts";
export { GIT_SAFETY_CONFIG, gitArgv, repositoryFilterDrivers, runGit } from "./git_command.ts";
export { readStreamText } from "./stream_text.ts";
export { quickRuntime } from "./quick_process.ts";
export {
  NotRegularFileError,
  OutsideRootsError,
  readRegularChunks,
  readRegularFile,
  readRegularPrefixWithin,
  readRegularTextSync,
} from "./regular_file.ts";
export { processStdio, processWebStdio } from "./process_stdio.ts";
export { processUid } from "./process_user.ts";
export type { CommandResult } from "./run_command.ts";
export {
  canonicalPath,
  detectSandbox,
  gitDirsOf,
  holdSandboxMounts,
  HOME_PROTECTED_PATHS,
  isWithinPath,
  PROTECTED_NAMES,
  removeLeftoverPlaceholders,
  sandboxArgv,
  type SandboxPolicy,
  SandboxProfileError,
  sandboxProfileProblem,
  type SandboxRuntime,
  type SandboxStatus,
  TRELLIS_HOME_SECRETS,
} from "./sandbox.ts";

/** The platform of the running process: Bun inside the compiled binary, Deno otherwise. */
export const platform: Platform = "Bun" in globalThis ? bunPlatform : denoPlatform;
