import { childEnv, type CommandResult, type Platform, runCommand } from "../platform/mod.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";

/** Per stream; a hook printing more is cut here and its run reported as failed. */
export const HOOK_OUTPUT_CAP_BYTES = 1024 * 1024;

export interface RunHookOptions {
  platform: Platform;
  /** The environment hooks start from (allow-listed by `childEnv`); default the process's. */
  baseEnv?: Record<string, string>;
  cwd: string;
  /** Event JSON written to stdin. */
  input: string;
  signal?: AbortSignal;
  /** The sandbox wrapper shared with `shell` (argv in, argv out). */
  wrapCommand?: (argv: string[]) => string[];
  maxOutputBytes?: number;
}

/**
 * Runs one command handler via `$SHELL -lc` (falling back to /bin/sh) with the event on stdin, the
 * handler's timeout killing the whole process group. Never throws: every failure is in the result.
 */
export function runHookCommand(handler: HookHandlerInfo, options: RunHookOptions): Promise<CommandResult> {
  const parent = options.baseEnv ?? options.platform.envAll();
  const vars = hookEnvVars(handler, options.cwd);
  const command = substitutePluginVars(handler.command, vars);
  const shell = parent.SHELL && parent.SHELL.startsWith("/") ? parent.SHELL : "/bin/sh";
  const argv = [shell, "-lc", command];
  return runCommand(options.platform, {
    cmd: options.wrapCommand ? options.wrapCommand(argv) : argv,
    cwd: options.cwd,
    env: childEnv(parent, { set: vars }),
    input: options.input,
    timeoutMs: handler.timeoutSec * 1000,
    signal: options.signal,
    maxOutputBytes: options.maxOutputBytes ?? HOOK_OUTPUT_CAP_BYTES,
  });
}

/** PLUGIN_ROOT/PLUGIN_DATA and their CLAUDE_ aliases for plugin hooks; CLAUDE_PROJECT_DIR for all. */
export function hookEnvVars(handler: HookHandlerInfo, cwd: string): Record<string, string> {
  const vars: Record<string, string> = { CLAUDE_PROJECT_DIR: cwd };
  if (handler.plugin) {
    vars.PLUGIN_ROOT = handler.plugin.pluginRoot;
    vars.CLAUDE_PLUGIN_ROOT = handler.plugin.pluginRoot;
    vars.PLUGIN_DATA = handler.plugin.dataDir;
    vars.CLAUDE_PLUGIN_DATA = handler.plugin.dataDir;
  }
  return vars;
}

/** `${PLUGIN_ROOT}`-style references are replaced literally, as Claude Code does, before the shell sees them. */
export function substitutePluginVars(command: string, vars: Record<string, string>): string {
  return command.replace(
    /\$\{([A-Z_]+)\}/g,
    (whole, name: string) => name.includes("PLUGIN_") && vars[name] !== undefined ? vars[name] : whole,
  );
}
