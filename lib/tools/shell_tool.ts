import * as nodePath from "node:path";
import {
  canonicalPath,
  childEnv,
  holdSandboxMounts,
  namedFiles,
  runCommand,
  sandboxArgv,
  SandboxProfileError,
  sandboxProfileProblem,
} from "../platform/mod.ts";
import {
  type ApprovalNeed,
  type ApprovalSubject,
  type CommandSandbox,
  describeSchema,
  memo,
  type ToolResult,
  type ToolRunContext,
  z,
} from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { pathArgument } from "./path_argument.ts";
import { isKnownSafeCommand } from "./known_safe_command.ts";
import { statQuietly } from "./file_errors.ts";
import { formatShellResult } from "./shell_output.ts";
import { shellProgram } from "./shell_program.ts";
import type { ToolEnv } from "./tool_env.ts";
import { sandboxPolicyFor } from "./sandbox_policy.ts";

export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
// Collect more than the model budget so the tail survives for head+tail truncation.
const COLLECT_MAX_BYTES = 8 * 1024 * 1024;

const schema = memo(() =>
  z.object({
    command: describeSchema(z.string().check(z.minLength(1)), "Shell command, run with bash -lc"),
    workdir: describeSchema(
      z.optional(pathArgument()),
      "Working directory (default: the workspace)",
    ),
    timeout_ms: describeSchema(
      z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(3_600_000))),
      `Kill the command after this many milliseconds (default ${DEFAULT_SHELL_TIMEOUT_MS})`,
    ),
  })
);
type Args = z.infer<ReturnType<typeof schema>>;

/** `shell` / Bash: a command under bubblewrap (unless full access), output with exit code and time. */
export function shellTool(env: ToolEnv): BuiltinTool {
  return builtinTool({
    name: "shell",
    hookName: "Bash",
    hookAliases: ["shell", "shell_command", "exec_command"],
    description: "Run a shell command (bash -lc) in the workspace. Returns exit code, wall time and output.",
    schema,
    parallel: false,
    approval: (args) => shellApproval(env, args),
    unsandboxedSubject: (args) => commandSubject(env, args, "outside"),
    run: (args, ctx) => runShell(env, args, ctx),
    toHookInput: (args) => ({ command: args.command, timeout: args.timeout_ms, workdir: args.workdir }),
    fromHookInput: (input) => ({
      command: input.command,
      timeout_ms: input.timeout ?? input.timeout_ms,
      workdir: input.workdir,
    }),
  });
}

/**
 * Whether a command needs approval, and exactly what approving allows (#13 item 2): under
 * `untrusted` it runs inside the sandbox all the same; without a sandbox (none here, or a protected
 * path the profile cannot hold) the request says it will run without one. Running outside an
 * available sandbox is never asked here: only `on-failure`'s retry asks for that, explicitly.
 */
export function shellApproval(env: ToolEnv, args: Pick<Args, "command" | "workdir">): ApprovalNeed {
  const { profile, sandbox } = env;
  if (profile.sandboxMode === "danger-full-access") return { kind: "none" };
  const cwd = commandCwd(env, args.workdir);
  const unavailable = !sandbox.available ? sandbox.reason : sandboxProfileProblem(policyFor(env, cwd));
  if (unavailable) {
    return {
      kind: "required",
      reason: `sandbox unavailable (${unavailable}): the command would run without one`,
      subject: commandSubject(env, args, "unavailable"),
    };
  }
  if (profile.approvalPolicy === "untrusted" && !isKnownSafeCommand(args.command)) {
    return {
      kind: "required",
      reason: "approval policy untrusted: command is not known to be read-only",
      subject: commandSubject(env, args, "inside"),
      policyOnly: true,
    };
  }
  return { kind: "none" };
}

/**
 * The command as an approval subject, with the files it names inside the writable roots (#20 item
 * 7): the ones the model could have rewritten, so "always" for `./build.sh` is for its current bytes.
 */
export function commandSubject(
  env: Pick<ToolEnv, "platform" | "profile">,
  args: Pick<Args, "command" | "workdir">,
  sandbox: CommandSandbox,
): ApprovalSubject {
  const cwd = commandCwd(env, args.workdir);
  const home = env.platform.env("HOME");
  const files = namedFiles(args.command, {
    cwd,
    roots: [env.profile.workspace, ...env.profile.writableRoots],
    vars: home ? { HOME: home } : {},
  });
  return { kind: "command", command: args.command, cwd, sandbox, ...(files.length ? { files } : {}) };
}

function commandCwd(env: Pick<ToolEnv, "profile">, workdir?: string): string {
  return canonicalPath(nodePath.resolve(env.profile.workspace, workdir ?? "."));
}

function policyFor(env: Pick<ToolEnv, "platform" | "profile">, cwd: string) {
  return sandboxPolicyFor(env.profile, cwd, env.platform.envAll());
}

/**
 * The argv a command runs as: bash -lc under bubblewrap unless full access or escalated; or the
 * result that refuses it (no such directory, no sandbox). exec_command and background Bash share it.
 */
export async function commandArgv(
  env: Pick<ToolEnv, "platform" | "profile" | "sandbox">,
  args: { command: string; workdir?: string },
  ctx: Pick<ToolRunContext, "escalated">,
): Promise<{ cmd: string[]; cwd: string; sandboxed: boolean } | ToolResult> {
  const { platform, profile, sandbox } = env;
  const cwd = commandCwd(env, args.workdir);
  if (!(await statQuietly(platform.fs, cwd))?.isDirectory) {
    return { status: "error", output: `Cannot run in "${args.workdir}": not a directory` };
  }
  const argv = [...(await shellProgram(platform)), args.command];
  const sandboxed = profile.sandboxMode !== "danger-full-access" && !ctx.escalated;
  let cmd = argv;
  if (sandboxed) {
    try {
      if (!sandbox.available) throw new SandboxProfileError(sandbox.reason);
      cmd = sandboxArgv(argv, policyFor(env, cwd), sandbox);
    } catch (error) {
      if (!(error instanceof SandboxProfileError)) throw error;
      return {
        status: "denied",
        output: `Cannot run "${args.command}": sandbox unavailable (${error.message})`,
      };
    }
  }
  return { cmd, cwd, sandboxed };
}

async function runShell(env: ToolEnv, args: Args, ctx: ToolRunContext): Promise<ToolResult> {
  const prepared = await commandArgv(env, args, ctx);
  if ("status" in prepared) return prepared;
  const { cmd, cwd, sandboxed } = prepared;
  const { platform } = env;
  const timeoutMs = args.timeout_ms ?? DEFAULT_SHELL_TIMEOUT_MS;
  // runCommand holds the sandbox's placeholders until the command has ended, then removes them.
  const spawn = {
    cmd,
    cwd,
    env: childEnv(platform.envAll()),
    timeoutMs,
    signal: ctx.signal,
    maxOutputBytes: COLLECT_MAX_BYTES,
  };
  // An editor's terminal (#25 item 1) runs the same argv, sandbox wrapper included.
  const runInEditor = env.editor?.runCommand;
  const run = () =>
    runInEditor
      ? runHeld(cmd, () => runInEditor({ ...spawn, callId: ctx.callId }))
      : runCommand(platform, spawn);
  // The turn's checkpoint names the command (or, under `checkpoints.shell = "snapshot"`, keeps the
  // files it changed): a rewind says what it cannot put back (#25 item 2).
  const result = env.changes ? await env.changes.aroundCommand(args.command, cwd, run) : await run();
  return formatShellResult(result, { timeoutMs, sandboxed, maxBytes: env.outputMaxBytes });
}

/** The sandbox argv's placeholders stay until the editor's process has ended, as runCommand holds them. */
async function runHeld<T>(cmd: string[], run: () => Promise<T>): Promise<T> {
  const release = holdSandboxMounts(cmd);
  try {
    return await run();
  } finally {
    release();
  }
}
