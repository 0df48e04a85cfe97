import { type Command, Option } from "commander";
import { APPROVAL_POLICIES, type LoadedConfig, SANDBOX_MODES, Workspace } from "../app/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { type Diagnostic, terminalText, UsageError } from "../shared/mod.ts";

/** What every command handler gets: the platform, output, and config loading with the common flags. */
export interface CliContext {
  platform: Platform;
  out(text: string): Promise<void>;
  err(text: string): void;
  /**
   * The workspace for the common flags (-c, -p/--profile, --cd), its config loaded and its
   * diagnostics printed to stderr; its other parts open when a command asks for them.
   */
  workspace(options: CommonOptions): Promise<Workspace>;
  /** The workspace's config alone (`(await workspace(options)).loaded`). */
  loadConfig(options: CommonOptions): Promise<LoadedConfig>;
  exitCode: number;
  /** Resolves when everything written so far has reached stdout (or stdout has gone). */
  flush(): Promise<void>;
  /**
   * Aborts when stdout can no longer be written: its reader went away (`trellis exec … | head`,
   * EPIPE) or the write failed. Later output is dropped; a command stops its work and exits quietly.
   */
  readonly stdoutClosed: AbortSignal;
  /** -c, -p and -C given before the command word (`trellis -c model=x exec …`), as Codex takes them. */
  globalOptions: CommonOptions;
  /**
   * The directory a command runs in: its own `--cd`, else the one before the command word
   * (`trellis -C DIR project trust`), else the process's; checked to be a directory.
   */
  cwd(local?: { cd?: string }): Promise<string>;
}

export interface CommonOptions {
  config?: string[];
  profile?: string;
  cd?: string;
  /** Print config diagnostics (warnings, skipped layers) on stderr; default true. */
  quietDiagnostics?: boolean;
  /** Leave out a config file that does not parse or validate (`trellis doctor` reports it). */
  skipInvalidFiles?: boolean;
}

/** The session flags every command line may carry (before the command word, or a command's own). */
export interface SessionFlags {
  config?: string[];
  model?: string;
  sandbox?: string;
  askForApproval?: string;
}

/** `-c` values with `-m`, `-s` and `-a` appended as the overrides they stand for (later ones win). */
export function sessionOverrides(flags: SessionFlags): string[] {
  const overrides = [...(flags.config ?? [])];
  if (flags.model !== undefined) overrides.push(`model=${JSON.stringify(flags.model)}`);
  if (flags.sandbox !== undefined) overrides.push(`sandbox_mode=${JSON.stringify(flags.sandbox)}`);
  if (flags.askForApproval !== undefined) {
    overrides.push(`approval_policy=${JSON.stringify(flags.askForApproval)}`);
  }
  return overrides;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * `-s/--sandbox` and `-a/--ask-for-approval` with their choices checked by commander, so a mistyped
 * value names the flag that carried it (not the `-c` override it becomes).
 */
export function sandboxOption(description: string): Option {
  return new Option("-s, --sandbox <mode>", description).choices(SANDBOX_MODES);
}

export function approvalOption(description: string): Option {
  return new Option("-a, --ask-for-approval <policy>", description).choices(APPROVAL_POLICIES);
}

/** -c/--config, -p/--profile and --cd, accepted by every command that reads config. */
export function withCommonOptions(command: Command): Command {
  return command
    .option(
      "-c, --config <key=value>",
      "override a config value (TOML value, else a string); repeatable",
      collect,
    )
    .option("-p, --profile <name>", "use [profiles.<name>] from config")
    .option("-C, --cd <dir>", "run as if started in <dir>");
}

export function printDiagnostics(ctx: Pick<CliContext, "err">, diagnostics: Diagnostic[]): void {
  for (const d of diagnostics) {
    const tag = d.level === "error" ? "error" : d.level === "warning" ? "warning" : "note";
    // Messages quote config, manifests and SKILL.md files a repository wrote: terminal-safe (#13 item 11).
    ctx.err(`${tag}: ${terminalText(d.message)}\n`);
  }
}

export function createContext(platform: Platform): CliContext {
  // Writes are chained so output keeps its order even when a caller does not await (commander).
  // Text that arrives while a write is queued joins it: one write per burst of events, not per line.
  let pending = Promise.resolve();
  let queued: string | null = null;
  const closed = new AbortController();
  const stdoutFailed = (error: unknown) => {
    if (closed.signal.aborted) return;
    // A reader that went away is the normal end of `| head`: nothing to tell anyone.
    if (!isBrokenPipe(error)) ctx.err(`error: cannot write to stdout: ${describeWriteError(error)}\n`);
    closed.abort();
  };
  const ctx: CliContext = {
    platform,
    out(text) {
      if (closed.signal.aborted) return pending;
      if (queued !== null) {
        queued += text;
        return pending;
      }
      queued = text;
      pending = pending.then(() => {
        const chunk = queued ?? "";
        queued = null;
        return closed.signal.aborted ? undefined : platform.writeStdout(chunk);
      }).catch(stdoutFailed);
      return pending;
    },
    flush: () => pending,
    stdoutClosed: closed.signal,
    globalOptions: {},
    err: (text) => platform.writeStderr(text),
    exitCode: 0,
    async workspace(local) {
      const options = withGlobalOptions(ctx.globalOptions, local);
      const cwd = await ctx.cwd(options);
      const ws = await Workspace.open(platform, {
        cwd,
        overrides: options.config ?? [],
        profile: options.profile,
        ...(options.skipInvalidFiles ? { skipInvalidFiles: true } : {}),
      });
      if (!options.quietDiagnostics) printDiagnostics(ctx, ws.diagnostics);
      return ws;
    },
    loadConfig: async (options) => (await ctx.workspace(options)).loaded,
    cwd: async (local = {}) => {
      const cd = local.cd ?? ctx.globalOptions.cd;
      return cd ? await resolveCd(platform, cd) : platform.cwd();
    },
  };
  return ctx;
}

/** A command's own flags win over the ones before the command word; -c values add up, globals first. */
function withGlobalOptions(global: CommonOptions, local: CommonOptions): CommonOptions {
  return {
    ...local,
    config: [...(global.config ?? []), ...(local.config ?? [])],
    profile: local.profile ?? global.profile,
    cd: local.cd ?? global.cd,
  };
}

/** `--cd DIR` must name a directory: running somewhere else than asked is worse than not running. */
async function resolveCd(platform: Platform, dir: string): Promise<string> {
  const absolute = dir.startsWith("/") ? dir : `${platform.cwd()}/${dir}`;
  const info = await platform.fs.stat(absolute).catch(() => null);
  if (!info) throw new UsageError(`Cannot use --cd "${dir}": no such directory`, { field: "cd" });
  if (!info.isDirectory) throw new UsageError(`Cannot use --cd "${dir}": not a directory`, { field: "cd" });
  return absolute;
}

/** EPIPE as Bun reports it (`code`), or Deno's BrokenPipe. */
function isBrokenPipe(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  return e?.code === "EPIPE" || e?.name === "BrokenPipe" || /broken pipe/i.test(String(e?.message ?? ""));
}

function describeWriteError(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0] : String(error);
}
