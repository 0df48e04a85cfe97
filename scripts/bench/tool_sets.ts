/**
 * Tool-set figures (#23 "Figures"): a PTY `exec_command` (Codex's set, `tty: true`) round trip
 * against a plain `shell` call (Trellis's set) for the same short command (`true`), both under the
 * same bwrap sandbox, alternating so drift hits both alike; the ratio is of the two medians. A
 * non-PTY `exec_command` is measured beside it as the floor of the face itself (same spawn path as
 * shell), so a miss says whether the PTY or the face costs it.
 *
 * The PTY is the runtime's: the binary runs on Bun, which opens one itself, so the target is judged
 * there (this file run under Bun by `bench()`); under Deno a PTY goes through util-linux `script`,
 * measured too, with that relay's own cost beside it.
 * Run alone: `deno run -A scripts/bench.ts tool_sets`.
 */
import { detectSandbox, platform } from "../../lib/platform/mod.ts";
import type { ToolRunContext } from "../../lib/shared/mod.ts";
import { type BuiltinTool, type PermissionProfile, SessionToolSets } from "../../lib/tools/mod.ts";
import { median } from "./_timing.ts";
import { bunCommand } from "../lib/bun_path.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

async function once(tool: BuiltinTool, raw: unknown, ctx: ToolRunContext): Promise<number> {
  const started = performance.now();
  const args = tool.parseArguments(raw);
  tool.approval(args, { cwd: ctx.cwd });
  const result = await tool.run(args, ctx);
  const took = performance.now() - started;
  if (result.status !== "success") throw new Error(`${tool.name} failed: ${result.output}`);
  return took;
}

/** Medians (ms) of the three calls, and of `script` around `true` less a bare `true`, in this runtime. */
interface Measured {
  runtime: string;
  sandboxed: boolean;
  shell: number;
  pty: number;
  pipe: number;
  scriptCost: number;
}

async function measure(): Promise<Measured> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-bench-toolsets-"));
  const ws = `${root}/ws`;
  await platform.fs.mkdir(ws);
  const profile: PermissionProfile = {
    sandboxMode: "workspace-write",
    approvalPolicy: "on-request",
    workspace: ws,
    writableRoots: [ws],
    readableRoots: [],
    networkAccess: false,
  };
  const env = { PATH: platform.env("PATH") ?? "/usr/bin:/bin", HOME: root, SHELL: "/bin/bash" };
  const quiet = { ...platform, envAll: () => env, env: (n: string) => env[n as keyof typeof env] };
  const sandbox = await detectSandbox(platform);
  const sets = (toolSet: "codex" | "trellis") =>
    new SessionToolSets({
      platform: quiet,
      profile,
      sandbox,
      toolSet,
      outputDir: () => Promise.resolve(root),
    });
  const codex = sets("codex");
  const trellis = sets("trellis");
  const find = (s: SessionToolSets, name: string) => s.toolsFor("gpt-5").tools.find((t) => t.name === name)!;
  const exec = find(codex, "exec_command");
  const shell = find(trellis, "shell");
  const ctx: ToolRunContext = {
    callId: "b",
    cwd: ws,
    signal: new AbortController().signal,
    emit: () => {},
    escalated: false,
  };
  const pty: number[] = [];
  const pipe: number[] = [];
  const plain: number[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      await once(shell, { command: "true" }, ctx);
      await once(exec, { cmd: "true", tty: true }, ctx);
    }
    for (let i = 0; i < 30; i++) {
      plain.push(await once(shell, { command: "true" }, ctx));
      pty.push(await once(exec, { cmd: "true", tty: true }, ctx));
      pipe.push(await once(exec, { cmd: "true" }, ctx));
    }
  } finally {
    await codex.close();
    await trellis.close();
    await platform.fs.remove(root, { recursive: true });
  }
  // The relay Deno's PTY goes through: util-linux `script` around `true`, against `true` spawned
  // bare, outside any sandbox: what that PTY costs before Trellis does anything.
  const spawn = async (cmd: string[]) => {
    const started = performance.now();
    await platform.spawn({ cmd, env, stdin: "null" }).status;
    return performance.now() - started;
  };
  const bare: number[] = [];
  const wrapped: number[] = [];
  for (let i = 0; i < 30; i++) {
    bare.push(await spawn(["true"]));
    wrapped.push(await spawn(["script", "-qefc", "true", "/dev/null"]));
  }
  return {
    runtime: platform.runtime,
    sandboxed: sandbox.available,
    shell: median(plain),
    pty: median(pty),
    pipe: median(pipe),
    scriptCost: median(wrapped) - median(bare),
  };
}

async function measureUnder(cmd: string[]): Promise<Measured> {
  const out = await new Deno.Command(cmd[0], {
    args: [...cmd.slice(1), new URL(import.meta.url).pathname, "--measure"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
  if (!out.success) {
    throw new Error(`tool_sets bench under ${cmd[0]}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return JSON.parse(text);
}

export async function bench(): Promise<BenchRow[]> {
  const bun = await measureUnder([bunCommand()]);
  const deno = await measureUnder([Deno.execPath(), "run", "-A"]);
  const ms = (x: number) => Math.round(x * 100) / 100;
  const ratio = (x: number) => Math.round(x * 100) / 100;
  const sandbox = bun.sandboxed ? ", bwrap" : ", no sandbox";
  return [
    {
      name: `reference: shell \`true\` (Trellis set${sandbox}), under Bun (the binary), median of 30`,
      value: ms(bun.shell),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "exec_command `true` with tty:true (Bun's own PTY), median of 30",
      value: ms(bun.pty),
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: "floor: exec_command `true` without a PTY, under Bun, median of 30",
      value: ms(bun.pipe),
      unit: "ms",
      target: "info",
      pass: true,
    },
    {
      name: "PTY exec_command ÷ shell, short command, under Bun (the binary)",
      value: ratio(bun.pty / bun.shell),
      unit: "×",
      target: "≤ 1.2",
      pass: bun.pty / bun.shell <= 1.2,
    },
    {
      name: "under Deno (PTY through `script`): PTY exec_command ÷ shell",
      value: ratio(deno.pty / deno.shell),
      unit: "×",
      target: "info",
      pass: true,
    },
    {
      name: "under Deno: `script -qefc true /dev/null` − bare `true` spawn (the relay alone), median of 30",
      value: ms(deno.scriptCost),
      unit: "ms",
      target: "info",
      pass: true,
    },
  ];
}

if (
  import.meta.main && (globalThis as { process?: { argv: string[] } }).process?.argv.includes("--measure")
) {
  console.log(JSON.stringify(await measure()));
}
