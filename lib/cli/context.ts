import type { Command } from "commander";
import { loadConfig, type LoadedConfig } from "../config/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { type Diagnostic, terminalText } from "../shared/mod.ts";

/** What every command handler gets: the platform, output, and config loading with the common flags. */
export interface CliContext {
  platform: Platform;
  out(text: string): Promise<void>;
  err(text: string): void;
  /** Loads config for the common flags (-c, -p/--profile, --cd), printing its diagnostics to stderr. */
  loadConfig(options: CommonOptions): Promise<LoadedConfig>;
  exitCode: number;
  /** Resolves when everything written so far has reached stdout. */
  flush(): Promise<void>;
}

export interface CommonOptions {
  config?: string[];
  profile?: string;
  cd?: string;
  /** Print config diagnostics (warnings, skipped layers) on stderr; default true. */
  quietDiagnostics?: boolean;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
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
  const ctx: CliContext = {
    platform,
    out(text) {
      if (queued !== null) {
        queued += text;
        return pending;
      }
      queued = text;
      pending = pending.then(() => {
        const chunk = queued ?? "";
        queued = null;
        return platform.writeStdout(chunk);
      });
      return pending;
    },
    flush: () => pending,
    err: (text) => platform.writeStderr(text),
    exitCode: 0,
    async loadConfig(options) {
      const cwd = options.cd ? resolveCd(platform, options.cd) : platform.cwd();
      const loaded = await loadConfig(platform.fs, {
        cwd,
        env: platform.env,
        overrides: options.config ?? [],
        profile: options.profile,
      });
      if (!options.quietDiagnostics) printDiagnostics(ctx, loaded.diagnostics);
      return loaded;
    },
  };
  return ctx;
}

function resolveCd(platform: Platform, dir: string): string {
  return dir.startsWith("/") ? dir : `${platform.cwd()}/${dir}`;
}
