import type * as acp from "@agentclientprotocol/sdk";
import { describeError } from "../shared/mod.ts";
import type { AcpCommandResult, AcpEditor } from "./host.ts";
import type { SessionUpdates } from "./session_updates.ts";

/** How often a running terminal command's output is polled for its cap (the client keeps the rest). */
const KILL_GRACE_MS = 2000;

/**
 * The client's files and terminal, as the built-in tools use them (#25 item 1), for what it
 * declared in `initialize`: `fs/read_text_file` (an unsaved buffer wins over the disk),
 * `fs/write_text_file`, `terminal/*` for the shell tool. The tools make every check first (roots,
 * protected paths, approvals), so the client is asked only what Trellis itself would have done.
 */
export function clientEditor(
  client: () => acp.AgentContext,
  capabilities: acp.ClientCapabilities,
  sessionId: () => string,
  updates: SessionUpdates,
): AcpEditor {
  const editor: AcpEditor = { fileChanged: (change) => updates.fileChanged(change) };
  if (capabilities.fs?.readTextFile) {
    editor.readTextFile = async (path) => {
      try {
        const response = await client().request("fs/read_text_file", { sessionId: sessionId(), path });
        return response.content;
      } catch {
        // Not a file the client can give (missing, binary): the tool reads the disk and says why.
        return null;
      }
    };
  }
  if (capabilities.fs?.writeTextFile) {
    editor.writeTextFile = async (path, content) => {
      await client().request("fs/write_text_file", { sessionId: sessionId(), path, content });
    };
  }
  if (capabilities.terminal) {
    editor.runCommand = (request) => runInTerminal(client(), sessionId(), request);
  }
  return editor;
}

async function runInTerminal(
  client: acp.AgentContext,
  sessionId: string,
  request: Parameters<NonNullable<AcpEditor["runCommand"]>>[0],
): Promise<AcpCommandResult> {
  const started = performance.now();
  const base = {
    code: null,
    signal: null,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    aborted: false,
  };
  let terminal: acp.TerminalHandle;
  try {
    terminal = await client.createTerminal({
      sessionId,
      command: request.cmd[0],
      args: request.cmd.slice(1),
      env: Object.entries(request.env).map(([name, value]) => ({ name, value })),
      cwd: request.cwd,
      outputByteLimit: request.maxOutputBytes,
    });
  } catch (error) {
    return {
      ...base,
      durationMs: performance.now() - started,
      error: `the client's terminal: ${describeError(error)}`,
    };
  }
  // The editor shows the command's output live in the tool call.
  await client.notify("session/update", {
    sessionId,
    update: {
      sessionUpdate: "tool_call_update",
      toolCallId: request.callId,
      content: [{ type: "terminal", terminalId: terminal.id }],
    },
  }).catch(() => {});
  let timedOut = false;
  let aborted = false;
  const kill = () => terminal.kill().catch(() => {});
  const timer = setTimeout(() => {
    timedOut = true;
    void kill();
  }, request.timeoutMs);
  const onAbort = () => {
    aborted = true;
    void kill();
  };
  request.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = await Promise.race([
      terminal.waitForExit(),
      // A client that never reports the exit after a kill: give up on it.
      new Promise<null>((resolve) => {
        const check = () =>
          (timedOut || aborted) ? setTimeout(() => resolve(null), KILL_GRACE_MS) : undefined;
        request.signal.addEventListener("abort", check, { once: true });
      }),
    ]);
    const output = await terminal.currentOutput().catch(() => ({ output: "", truncated: false }));
    return {
      ...base,
      code: exit?.exitCode ?? null,
      signal: exit?.signal ?? (exit ? null : "SIGKILL"),
      stdout: output.output,
      stdoutTruncated: output.truncated,
      timedOut,
      aborted,
      durationMs: performance.now() - started,
    };
  } catch (error) {
    return {
      ...base,
      aborted,
      timedOut,
      durationMs: performance.now() - started,
      error: describeError(error),
    };
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", onAbort);
    await terminal.release().catch(() => {});
  }
}
