/**
 * The command line: one file per command under `commands/`; the only layer that prints.
 *
 * @example
 * ```ts
 * import { runCli } from "./mod.ts";
 * import { platform } from "../platform/mod.ts";
 * platform.exit(await runCli(["--version"], platform));
 * ```
 * @module
 */
export { runCli } from "./run_cli.ts";
export { COMMIT, VERSION, versionLine } from "./version.ts";
