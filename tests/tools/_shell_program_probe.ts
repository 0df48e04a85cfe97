/**
 * Runs `echo` through the shell tool (unsandboxed: the shell program's lookup is the subject) as
 * whichever user runs this, with the PATH it was given, and prints the program and the result as
 * JSON (shell_program_test.ts runs it as uid 65534).
 */
import process from "node:process";
import { platform } from "../../lib/platform/mod.ts";
import { createBuiltinTools } from "../../lib/tools/mod.ts";
import { shellProgram } from "../../lib/tools/shell_program.ts";

const ws = process.cwd();
const profile = {
  sandboxMode: "danger-full-access" as const,
  approvalPolicy: "never" as const,
  workspace: ws,
  writableRoots: [ws],
  readableRoots: [],
  networkAccess: false,
};
const program = await shellProgram(platform).catch((error) => `failed: ${error.message}`);
const shell = createBuiltinTools({ platform, profile, sandbox: { available: false, reason: "not needed" } })
  .find((t) => t.name === "shell")!;
const result = await shell.run(shell.parseArguments({ command: "echo shell-ran" }), {
  callId: "c",
  cwd: ws,
  signal: new AbortController().signal,
  emit: () => {},
  escalated: false,
}).catch((error) => ({ status: "threw", output: String(error) }));
console.log(JSON.stringify({ program, status: result.status, output: result.output }));
