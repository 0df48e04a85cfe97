import type { CommandResult } from "../platform/mod.ts";
import type { ToolResult } from "../shared/mod.ts";
import { truncateOutput } from "./output_budget.ts";

const SANDBOX_SYMPTOMS = /Read-only file system|Network is unreachable|Temporary failure in name resolution/;
const SANDBOX_NOTE =
  "[the command ran in a sandbox: writes outside the writable roots and network access are blocked]";

/**
 * The model-facing text of a finished command, Codex-style: exit code, wall time, then output.
 * A non-zero exit is an error result; an abort is `aborted`, a timeout an error that says so.
 */
export function formatShellResult(
  result: CommandResult,
  options: { timeoutMs: number; sandboxed: boolean; maxBytes: number },
): ToolResult {
  const seconds = (result.durationMs / 1000).toFixed(1);
  const body = [result.stdout, result.stderr].filter((s) => s !== "").join(
    result.stdout.endsWith("\n") ? "" : "\n",
  );
  const output = truncateOutput(body, options.maxBytes);
  if (result.error !== undefined) {
    return { status: "error", output: `Cannot run command: ${result.error}` };
  }
  if (result.aborted) {
    return { status: "aborted", output: `Command aborted after ${seconds} seconds\nOutput:\n${output}` };
  }
  if (result.timedOut) {
    return {
      status: "error",
      output: `Command timed out after ${options.timeoutMs} ms and was killed\nOutput:\n${output}`,
    };
  }
  const code = result.code ?? `signal ${result.signal}`;
  const notes = [
    result.stdoutTruncated || result.stderrTruncated ? "[output capture limit reached]" : "",
    options.sandboxed && result.code !== 0 && SANDBOX_SYMPTOMS.test(body) ? SANDBOX_NOTE : "",
  ].filter(Boolean);
  const note = notes.length ? `\n${notes.join("\n")}` : "";
  return {
    status: result.code === 0 ? "success" : "error",
    output: `Exit code: ${code}\nWall time: ${seconds} seconds\nOutput:\n${output}${note}`,
  };
}
