import { approvalRequest, type Approver, approves } from "../loop/mod.ts";
import { childEnv, runCommand } from "../platform/mod.ts";
import type { ShellRun, ShellRunner } from "../skills/mod.ts";
import { type PermissionRules, ruleRefusal } from "../shared/mod.ts";
import { commandArgv, commandSubject, DEFAULT_SHELL_TIMEOUT_MS, type SessionToolSets } from "../tools/mod.ts";

/** Approval requests made so far, for their call ids. */
let injectionsAsked = 0;

/** What one `!{…}` may put into the prompt (stdout and stderr together). */
const INJECTION_MAX_BYTES = 256 * 1024;

/**
 * Runs a Gemini CLI command's `!{…}` (#24 item 3) as the shell tool runs a command: the same shell
 * and sandbox (bash -lc under bubblewrap unless full access; no sandbox, no run), the same
 * environment, the shell tool's timeout, the turn's signal. The command comes from an extension's
 * file, not from the person, so it is asked about each time, as Gemini CLI asks — through the
 * session's approver, whose "always" answers it remembers, for the command and the bytes of the
 * files it runs — except under `approval_policy = "never"`, where nothing is asked and it runs
 * inside the sandbox as the model's commands do. The permission rules hold as for a `Bash` call:
 * a deny rule refuses it, an ask rule asks (under "never": refuses), an allow rule runs it unasked.
 */
export function commandInjectionRunner(options: {
  toolSets: SessionToolSets;
  approver: () => Approver;
  approvalPolicy: () => string;
  permissions?: PermissionRules;
  signal?: AbortSignal;
}): ShellRunner {
  return async (command: string, name: string): Promise<ShellRun> => {
    const env = options.toolSets.commandEnv;
    const prepared = await commandArgv(env, { command }, { escalated: false });
    if ("status" in prepared) return { ok: false, reason: prepared.output };
    const rule = await options.permissions?.judge(
      { toolName: "Bash", aliases: ["shell"], toolInput: { command } },
      prepared.cwd,
    );
    if (rule?.kind === "deny") return { ok: false, reason: ruleRefusal(rule) };
    const never = options.approvalPolicy() === "never";
    if (rule?.kind === "ask" && never) {
      return { ok: false, reason: ruleRefusal(rule, 'asks, and approval_policy = "never" does not ask') };
    }
    // Asked unless an allow rule answers it or the policy asks no one (an ask rule refused above).
    if (rule?.kind !== "allow" && !never) {
      const sandbox = prepared.sandboxed ? "inside" : "unavailable";
      const answer = await options.approver().request(approvalRequest({
        callId: `gemini-command-${++injectionsAsked}`,
        toolName: "shell",
        args: { command },
        reason: `Gemini CLI command /${name} runs this to fill in its prompt`,
        subject: commandSubject(env, { command }, sandbox),
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
      ...(options.signal ? { signal: options.signal } : {}),
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
