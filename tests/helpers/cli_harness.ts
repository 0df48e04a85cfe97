import { runCli } from "../../lib/cli/mod.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import { execArgs } from "./exec_args.ts";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process with its own environment, cwd and captured output, so tests never
 * mutate the real process environment. `env` replaces the environment entirely (PATH is kept).
 */
export async function runCliCaptured(
  argv: string[],
  options: { env: Record<string, string>; cwd: string; stdin?: string; tty?: boolean },
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const env: Record<string, string> = { PATH: platform.env("PATH") ?? "/usr/bin:/bin", ...options.env };
  const stdinLines = (options.stdin ?? "").split("\n");
  const harness: Platform = {
    ...platform,
    env: (name) => env[name],
    envAll: () => ({ ...env }),
    cwd: () => options.cwd,
    args: () => execArgs(argv),
    exit: (code) => {
      throw new Error(`exit(${code}) called inside the CLI harness`);
    },
    isTerminal: () => options.tty ?? false,
    readStdin: () => Promise.resolve(options.stdin ?? ""),
    readLine: () => Promise.resolve(stdinLines.length ? stdinLines.shift()! : null),
    writeStdout: (text) => {
      stdout += text;
      return Promise.resolve();
    },
    writeStderr: (text) => {
      stderr += text;
    },
    homeDir: () => env.HOME ?? "/nonexistent",
    onSignal: () => () => {},
  };
  const code = await runCli(execArgs(argv), harness);
  return { code, stdout, stderr };
}

/** A fresh temp dir with HOME and TRELLIS_HOME inside it, and an isolated /etc/trellis. */
export async function makeSandboxHome(): Promise<{ root: string; env: Record<string, string> }> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-test-"));
  const home = `${root}/home`;
  await platform.fs.mkdir(`${home}/.trellis`);
  // As Trellis makes it (#20 item 13): a 0755 one would be tightened, with a warning on stderr.
  await platform.fs.chmod(`${home}/.trellis`, 0o700);
  await platform.fs.mkdir(`${root}/etc`);
  return {
    root,
    env: {
      HOME: home,
      TRELLIS_HOME: `${home}/.trellis`,
      TRELLIS_SYSTEM_DIR: `${root}/etc`,
      TMPDIR: platform.tempDir(),
    },
  };
}
