import { approvalRequest, type Approver, approves } from "../loop/mod.ts";
import { childEnv, runCommand } from "../platform/mod.ts";
import type { ShellRun, ShellRunner } from "../skills/mod.ts";
import { commandArgv, DEFAULT_SHELL_TIMEOUT_MS, type SessionToolSets } from "../tools/mod.ts";

/** What one `!{…}` may put into the prompt (stdout and stderr together). */
const INJECTION_MAX_BYTES = 256 * 1024;

/**
 * Runs a Gemini CLI command's `!{…}` (#24 item 3) as the shell tool runs a command: the same shell
 * and sandbox (bash -lc under bubblewrap unless full access; no sandbox, no run), the same
 * environment, the shell tool's timeout. The command comes from an extension's file, not from the
 * person, so it is asked about each time, as Gemini CLI asks — through the session's approver,
 * whose "always" answers it remembers — except under `approval_policy = "never"`, where nothing is
 * asked and it runs inside the sandbox as the model's commands do.
 */
export function commandInjectionRunner(options: {
  toolSets: SessionToolSets;
  approver: () => Approver;
  approvalPolicy: () => string;
}): ShellRunner {
  let asked = 0;
  return async (command: string, name: string): Promise<ShellRun> => {
    const env = options.toolSets.commandEnv;
    const prepared = await commandArgv(env, { command }, { escalated: false });
    if ("status" in prepared) return { ok: false, reason: prepared.output };
    if (options.approvalPolicy() !== "never") {
      const answer = await options.approver().request(approvalRequest({
        callId: `gemini-command-${++asked}`,
        toolName: "shell",
        args: { command },
        reason: `Gemini CLI command /${name} runs this to fill in its prompt`,
        subject: {
          kind: "command",
          command,
          cwd: prepared.cwd,
          sandbox: prepared.sandboxed ? "inside" : "unavailable",
        },
      }));
      if (!approves(answer)) {
        return { ok: false, reason: `not approved${answer.reason ? ` (${answer.reason})` : ""}` };
      }
    }
    const result = await runCommand(env.platform, {
      cmd: prepared.cmd,
      cwd: prepared.cwd,
      env: childEnv(env.platform.envAll()),
      timeoutMs: DEFAULT_SHELL_TIMEOUT_MS,
      maxOutputBytes: INJECTION_MAX_BYTES,
    });
    if (result.error !== undefined) return { ok: false, reason: `could not start: ${result.error}` };
    const cut = result.stdoutTruncated || result.stderrTruncated;
    return {
      ok: true,
      output: result.stdout + result.stderr + (cut ? `\n[… output cut at ${INJECTION_MAX_BYTES} bytes]` : ""),
      exitCode: result.code,
      signal: result.signal,
      ...(result.timedOut ? { timedOut: true } : {}),
      ...(result.aborted ? { aborted: true } : {}),
    };
  };
}
