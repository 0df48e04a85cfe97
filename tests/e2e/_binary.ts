import { platform } from "../../lib/platform/mod.ts";

/** The binary under test: $TRELLIS_BIN (CI: dist/trellis), else the sources through Deno. */
export function trellisArgv(): string[] {
  const bin = platform.env("TRELLIS_BIN");
  if (bin) return [bin];
  return [platform.execPath(), "run", "-A", new URL("../../main.ts", import.meta.url).pathname];
}

export interface BinaryRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Runs the binary with an explicit environment and cwd (never the test process's own). */
export async function runTrellis(
  args: string[],
  options: { env: Record<string, string>; cwd: string; stdin?: string; timeoutMs?: number },
): Promise<BinaryRun> {
  const env = { PATH: platform.env("PATH") ?? "/usr/bin:/bin", ...options.env };
  const command = new Deno.Command(trellisArgv()[0], {
    args: [...trellisArgv().slice(1), ...args],
    cwd: options.cwd,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const out = await child.output();
  clearTimeout(timer);
  return {
    code: out.signal ? null : out.code,
    signal: out.signal,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** Parses `exec --json` output into events. */
export function events(stdout: string): Record<string, any>[] {
  return stdout.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/**
 * The completed tool-call items of an `exec --json` stream, whatever their Codex type
 * (command_execution, file_change, mcp_tool_call, or Trellis's tool_call): each has `call_id`,
 * `name` and `call_status` (completed | failed | denied | aborted).
 */
export function callItems(stdout: string): Record<string, any>[] {
  return events(stdout).filter((e) => e.type === "item.completed" && "call_id" in e.item).map((e) => e.item);
}
