import {
  type CommandResult,
  type FileSystem,
  holdSandboxMounts,
  notStarted,
  type Platform,
  readStreamText,
} from "../platform/mod.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";

/** Per stream; a hook printing more is cut here and its run reported as failed. */
export const HOOK_OUTPUT_CAP_BYTES = 1024 * 1024;

export interface RunHookOptions {
  platform: Platform;
  /** The environment hooks start from, whole (HK-6); default the process's. */
  baseEnv?: Record<string, string>;
  cwd: string;
  /** Event JSON written to stdin. */
  input: string;
  signal?: AbortSignal;
  /** Opt-in confinement (`[hooks] sandbox`, `hooks_sandbox`): argv in, argv out. Absent: runs as the user. */
  wrapCommand?: (argv: string[]) => string[];
  maxOutputBytes?: number;
  /** Stop waiting when the first stdout line is `{"async": true, …}`, as Claude Code does. */
  detachOnAsyncLine?: boolean;
  /** The session's id: Gemini CLI hooks get it as `GEMINI_SESSION_ID`. */
  sessionId?: string;
}

/** A run; `detached` when the hook declared itself async on its first line and goes on in the background. */
export interface HookCommandResult extends CommandResult {
  detached?: {
    /** `asyncTimeout` of the declaration (ms), which replaces the handler's timeout from then on. */
    asyncTimeoutMs?: number;
    /** The rest of the run: stdout after the declaration line, stderr, exit. Never rejects. */
    completion: Promise<CommandResult>;
  };
}

/**
 * Runs one command handler via `$SHELL -lc` (falling back to /bin/sh) with the event on stdin, the
 * handler's timeout killing the whole process group. The hook gets the user's whole environment and,
 * unless confinement was opted into, the user's file system and network, as in Claude Code and Codex:
 * a notification hook needs its token variable and the network, a logging hook writes under `~`.
 * Content trust (HK-3) is what gates it. Never throws: every failure is in the result.
 */
export async function runHookCommand(
  handler: HookHandlerInfo,
  options: RunHookOptions,
): Promise<HookCommandResult> {
  const started = performance.now();
  const parent = options.baseEnv ?? options.platform.envAll();
  const vars = { ...hookEnvVars(handler, options.cwd, options.sessionId), ...declaredEnv(handler, parent) };
  if (handler.plugin) await ensureDataDir(options.platform.fs, handler.plugin.dataDir);
  const command = substitutePluginVars(handler.command, vars);
  const argv = handler.args
    ? [command, ...handler.args.map((arg) => substitutePluginVars(arg, vars))]
    : shellArgv(handler.shell, parent, command);
  const cmd = options.wrapCommand ? options.wrapCommand(argv) : argv;
  // A confined hook's sandbox placeholders stay until the hook has ended, also in the background.
  const release = holdSandboxMounts(cmd);
  let child;
  try {
    child = options.platform.spawn({
      cmd,
      cwd: options.cwd,
      env: { ...parent, ...vars },
      stdin: "piped",
      timeoutMs: handler.timeoutSec * 1000,
      signal: options.signal,
    });
  } catch (error) {
    release();
    return { ...noOutput(started), error: error instanceof Error ? error.message : String(error) };
  }
  const proc = child;
  if (proc.stdin) {
    const writer = proc.stdin.getWriter();
    writer.write(new TextEncoder().encode(options.input)).then(() => writer.close()).catch(() => {});
  }
  let declared: ((line: AsyncDeclaration | null) => void) | undefined;
  const declaration = new Promise<AsyncDeclaration | null>((resolve) => declared = resolve);
  const max = options.maxOutputBytes ?? HOOK_OUTPUT_CAP_BYTES;
  let asyncTimedOut = false;
  const full = Promise.all([
    readStreamText(
      proc.stdout,
      max,
      options.detachOnAsyncLine ? (line) => declared!(asyncLine(line)) : undefined,
    ),
    readStreamText(proc.stderr, max),
    proc.status,
  ]).then(([stdout, stderr, status]): CommandResult => ({
    code: status.code,
    signal: status.signal,
    stdout: stdout.text,
    stderr: stderr.text,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    timedOut: status.timedOut || asyncTimedOut,
    aborted: status.aborted,
    durationMs: performance.now() - started,
  })).finally(release);
  const first = await Promise.race([declaration, full.then(() => null)]);
  if (!first) return await full;
  const timer = first.asyncTimeoutMs !== undefined
    ? setTimeout(() => {
      asyncTimedOut = true;
      proc.kill();
    }, first.asyncTimeoutMs)
    : undefined;
  const completion = full.then((r) => ({ ...r, stdout: r.stdout.slice(first.length) }))
    .finally(() => clearTimeout(timer));
  return {
    ...noOutput(started),
    code: 0,
    detached: {
      ...(first.asyncTimeoutMs !== undefined ? { asyncTimeoutMs: first.asyncTimeoutMs } : {}),
      completion,
    },
  };
}

/**
 * How a command is read: `$SHELL -lc` (falling back to /bin/sh), or the handler's `shell` — a
 * PowerShell is given `-Command`, any other shell `-c`.
 */
function shellArgv(shell: string | undefined, env: Record<string, string>, command: string): string[] {
  if (shell === undefined) {
    return [env.SHELL && env.SHELL.startsWith("/") ? env.SHELL : "/bin/sh", "-lc", command];
  }
  if (/^(powershell|pwsh)(\.exe)?$/i.test(shell.split("/").at(-1)!)) {
    return [shell === "powershell" ? "pwsh" : shell, "-NoProfile", "-Command", command];
  }
  return [shell, "-c", command];
}

interface AsyncDeclaration {
  /** Characters of stdout the declaration line took, its newline included. */
  length: number;
  asyncTimeoutMs?: number;
}

/** `{"async": true, "asyncTimeout": 30000}` as the first line: the hook backgrounds itself. */
function asyncLine(line: string): AsyncDeclaration | null {
  try {
    const value = JSON.parse(line);
    if (typeof value !== "object" || value === null || value.async !== true) return null;
    const timeout = value.asyncTimeout;
    return {
      length: line.length + 1,
      ...(typeof timeout === "number" && timeout > 0 ? { asyncTimeoutMs: timeout } : {}),
    };
  } catch {
    return null;
  }
}

function noOutput(started: number): CommandResult {
  return notStarted(performance.now() - started);
}

/** PLUGIN_DATA must exist (and so be writable, also as a sandbox root) before a plugin hook starts. */
async function ensureDataDir(fs: FileSystem, dir: string): Promise<void> {
  try {
    await fs.mkdir(dir);
  } catch {
    // the hook reports what it cannot write; a missing data dir never stops it from running
  }
}

/**
 * PLUGIN_ROOT/PLUGIN_DATA and their CLAUDE_ aliases for plugin hooks; CLAUDE_PROJECT_DIR for all;
 * for a Gemini CLI hook what Gemini sets (GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID).
 */
export function hookEnvVars(
  handler: HookHandlerInfo,
  cwd: string,
  sessionId?: string,
): Record<string, string> {
  const vars: Record<string, string> = { CLAUDE_PROJECT_DIR: cwd };
  if (handler.dialect === "gemini") {
    vars.GEMINI_PROJECT_DIR = cwd;
    vars.GEMINI_CWD = cwd;
    if (sessionId !== undefined) vars.GEMINI_SESSION_ID = sessionId;
  }
  if (handler.plugin) {
    vars.PLUGIN_ROOT = handler.plugin.pluginRoot;
    vars.CLAUDE_PLUGIN_ROOT = handler.plugin.pluginRoot;
    vars.PLUGIN_DATA = handler.plugin.dataDir;
    vars.CLAUDE_PLUGIN_DATA = handler.plugin.dataDir;
  }
  return vars;
}

/** A hook's own `env` (Copilot's, Gemini's), `$VAR` and `${VAR}` expanded from the environment. */
function declaredEnv(handler: HookHandlerInfo, parent: Record<string, string>): Record<string, string> {
  if (!handler.env) return {};
  const expand = (value: string) =>
    value.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (_, a, b) => parent[a ?? b] ?? "",
    );
  return Object.fromEntries(Object.entries(handler.env).map(([k, v]) => [k, expand(v)]));
}

/** `${PLUGIN_ROOT}`-style references are replaced literally, as Claude Code does, before the shell sees them. */
export function substitutePluginVars(command: string, vars: Record<string, string>): string {
  return command.replace(
    /\$\{([A-Z_]+)\}/g,
    (whole, name: string) => name.includes("PLUGIN_") && vars[name] !== undefined ? vars[name] : whole,
  );
}
