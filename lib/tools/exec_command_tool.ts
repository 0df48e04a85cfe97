/**
 * Codex's `exec_command` and `write_stdin` (#23 item 2), shapes as Codex 0.171 declares them
 * (fixtures/peers/codex-0.171-gpt-5.json): a command starts as a session that may outlive the call
 * (a server, a REPL on a PTY); the model polls or types into it by `session_id`. Approval, sandbox
 * and hooks are `shell`'s: hooks see `Bash` with `command`.
 */
import { describeSchema, memo, type ToolResult, z } from "../shared/mod.ts";
import type { BuiltinTool } from "./builtin_tool.ts";
import { parseToolArguments } from "./builtin_tool.ts";
import type { ExecSessions } from "./exec_sessions.ts";
import { truncateOutput } from "./output_budget.ts";
import { commandArgv, shellApproval } from "./shell_tool.ts";
import { objectSchema } from "./tool_face.ts";
import type { ToolEnv } from "./tool_env.ts";

const DEFAULT_EXEC_YIELD_MS = 10_000;
const DEFAULT_WRITE_YIELD_MS = 250;
const DEFAULT_POLL_YIELD_MS = 5_000;
const clampYield = (ms: number | undefined, fallback: number, max = 30_000) =>
  Math.min(Math.max(ms ?? fallback, 250), max);

const execSchema = memo(() =>
  z.object({
    cmd: z.string().check(z.minLength(1)),
    workdir: z.optional(z.string()),
    tty: z.optional(z.boolean()),
    yield_time_ms: z.optional(z.number()),
    max_output_tokens: z.optional(z.number()),
    shell: z.optional(z.string()),
    login: z.optional(z.boolean()),
    justification: z.optional(z.string()),
    sandbox_permissions: z.optional(z.enum(["use_default", "require_escalated"])),
    prefix_rule: z.optional(z.array(z.string())),
  })
);
type ExecArgs = z.infer<ReturnType<typeof execSchema>>;

const writeSchema = memo(() =>
  z.object({
    session_id: describeSchema(z.number(), "session id"),
    chars: z.optional(z.string()),
    yield_time_ms: z.optional(z.number()),
    max_output_tokens: z.optional(z.number()),
  })
);
type WriteArgs = z.infer<ReturnType<typeof writeSchema>>;

const str = (description: string) => ({ type: "string", description });
const num = (description: string) => ({ type: "number", description });

export function execCommandTool(env: ToolEnv, sessions: ExecSessions): BuiltinTool {
  const parameters = objectSchema({
    cmd: str("The shell command to run."),
    justification: str("Why the command must run outside the sandbox; only with require_escalated."),
    login: { type: "boolean", description: "Start a login shell (default: as the session)." },
    max_output_tokens: num("Most output tokens to return (default 10000)."),
    prefix_rule: {
      type: "array",
      items: { type: "string" },
      description: "Command prefix to approve again.",
    },
    sandbox_permissions: {
      type: "string",
      enum: ["use_default", "require_escalated"],
      description: "use_default runs sandboxed; require_escalated asks to run without the sandbox.",
    },
    shell: str("Shell to run the command with (default: bash)."),
    tty: { type: "boolean", description: "Run on a pseudo-terminal (for interactive programs)." },
    workdir: str("Directory to run in (default: the workspace)."),
    yield_time_ms: num("How long to wait for output before returning (default 10000, 250-30000)."),
  }, ["cmd"]);
  const toShell = (args: ExecArgs) => ({ command: args.cmd, workdir: args.workdir });
  return {
    name: "exec_command",
    hookName: "Bash",
    hookAliases: ["exec_command", "shell"],
    description:
      "Run a shell command, on a PTY with tty:true. Returns its output, or a session id to poll or type into with write_stdin while it runs.",
    parameters,
    parallel: false,
    source: { kind: "builtin" },
    parseArguments: (raw) => parseToolArguments("exec_command", execSchema(), raw),
    approval: (args) => shellApproval(env, toShell(args as ExecArgs)),
    derivedParameters: () => Promise.resolve(parameters),
    toHookInput: (args) => {
      const a = args as ExecArgs;
      return { command: a.cmd, ...(a.workdir ? { workdir: a.workdir } : {}) };
    },
    fromHookInput: (input) => {
      const i = input as Record<string, unknown>;
      return parseToolArguments("exec_command", execSchema(), {
        ...i,
        cmd: i.command ?? i.cmd,
        command: undefined,
      });
    },
    async run(raw, ctx) {
      const args = raw as ExecArgs;
      const prepared = await commandArgv(env, toShell(args), ctx);
      if ("status" in prepared) return prepared;
      const session = sessions.start(prepared.cmd, {
        command: args.cmd,
        cwd: prepared.cwd,
        tty: args.tty ?? false,
      });
      if (typeof session === "string") return { status: "error", output: session };
      const read = await sessions.read(
        session,
        clampYield(args.yield_time_ms, DEFAULT_EXEC_YIELD_MS),
        ctx.signal,
      );
      return execResult(session.id, read, budget(env, args.max_output_tokens));
    },
  };
}

export function writeStdinTool(env: ToolEnv, sessions: ExecSessions): BuiltinTool {
  const parameters = objectSchema({
    chars: str("Characters to write to the session's stdin; empty polls for output without writing."),
    max_output_tokens: num("Most output tokens to return (default 10000)."),
    session_id: num("The session id exec_command returned."),
    yield_time_ms: num("How long to wait for output (default 250 after a write, 5000 for a poll)."),
  }, ["session_id"]);
  return {
    name: "write_stdin",
    hookName: "write_stdin",
    hookAliases: [],
    description:
      "Write characters to a running exec_command session (\\u0003 interrupts it) and return its new output.",
    parameters,
    parallel: false,
    source: { kind: "builtin" },
    parseArguments: (raw) => parseToolArguments("write_stdin", writeSchema(), raw),
    // The command was approved when it started; typing into it is the same command.
    approval: () => ({ kind: "none" }),
    derivedParameters: () => Promise.resolve(parameters),
    toHookInput: (args) => args,
    fromHookInput: (input) => parseToolArguments("write_stdin", writeSchema(), input),
    async run(raw, ctx) {
      const args = raw as WriteArgs;
      const session = sessions.get(args.session_id);
      if (!session) {
        return { status: "error", output: `write_stdin failed: no running session ${args.session_id}` };
      }
      await sessions.write(session, args.chars ?? "");
      const yieldMs = args.chars
        ? clampYield(args.yield_time_ms, DEFAULT_WRITE_YIELD_MS)
        : clampYield(args.yield_time_ms, DEFAULT_POLL_YIELD_MS, 300_000);
      const read = await sessions.read(session, yieldMs, ctx.signal);
      return execResult(session.id, read, budget(env, args.max_output_tokens));
    },
  };
}

function budget(env: ToolEnv, maxTokens: number | undefined): number {
  return maxTokens ? Math.min(env.outputMaxBytes, Math.max(256, maxTokens * 4)) : env.outputMaxBytes;
}

/** Codex's output text: wall time, then the exit code or the session still running, then output. */
function execResult(
  id: number,
  read: { output: string; dropped: number; exitCode?: number | null; wallMs: number },
  maxBytes: number,
): ToolResult {
  const state = read.exitCode === undefined
    ? `Process running with session ID ${id}`
    : `Process exited with code ${read.exitCode ?? "null (killed by a signal)"}`;
  const dropped = read.dropped ? `[${read.dropped} earlier bytes dropped]\n` : "";
  return {
    status: read.exitCode === undefined || read.exitCode === 0 ? "success" : "error",
    output: `Wall time: ${(read.wallMs / 1000).toFixed(4)} seconds\n${state}\nOutput:\n${dropped}${
      truncateOutput(read.output, maxBytes)
    }`,
  };
}
