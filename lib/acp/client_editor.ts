import type * as acp from "@agentclientprotocol/sdk";
import { notStarted } from "../platform/mod.ts";
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
    return notStarted(performance.now() - started, `the client's terminal: ${describeError(error)}`);
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
  // A client that never reports the exit after a kill (timeout or abort) is given up on.
  let giveUp = () => {};
  const gaveUp = new Promise<null>((resolve) => {
    giveUp = () => void setTimeout(() => resolve(null), KILL_GRACE_MS);
  });
  const timer = setTimeout(() => {
    timedOut = true;
    void kill();
    giveUp();
  }, request.timeoutMs);
  const onAbort = () => {
    aborted = true;
    void kill();
    giveUp();
  };
  request.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = await Promise.race([terminal.waitForExit(), gaveUp]);
    const output = await terminal.currentOutput().catch(() => ({ output: "", truncated: false }));
    return {
      ...notStarted(performance.now() - started),
      code: exit?.exitCode ?? null,
      signal: exit?.signal ?? (exit ? null : "SIGKILL"),
      stdout: output.output,
      stdoutTruncated: output.truncated,
      timedOut,
      aborted,
      durationMs: performance.now() - started,
    };
  } catch (error) {
    return { ...notStarted(performance.now() - started, describeError(error)), aborted, timedOut };
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", onAbort);
    await terminal.release().catch(() => {});
  }
}
