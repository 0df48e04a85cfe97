/**
 * Tool-set figures (#23 "Figures"): a PTY `exec_command` (Codex's set, `tty: true`) round trip
 * against a plain `shell` call (Trellis's set) for the same short command (`true`), both under the
 * same bwrap sandbox, alternating so drift hits both alike; the ratio is of the two medians. A
 * non-PTY `exec_command` is measured beside it as the floor of the face itself (same spawn path as
 * shell), so a miss says whether the PTY (`script` inside bwrap) or the face costs it.
 * Run alone: `deno run -A scripts/bench.ts tool_sets`.
 */
import { detectSandbox, platform } from "../../lib/platform/mod.ts";
import type { ToolRunContext } from "../../lib/shared/mod.ts";
import { type BuiltinTool, type PermissionProfile, SessionToolSets } from "../../lib/tools/mod.ts";
import { median } from "./_timing.ts";

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

export async function bench(): Promise<BenchRow[]> {
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
  // The PTY's own floor: util-linux `script` (what a PTY session runs under) around `true`, against
  // `true` spawned bare, outside any sandbox: what a PTY costs before Trellis does anything.
  const spawn = async (argv: string[]) => {
    const started = performance.now();
    await new Deno.Command(argv[0], { args: argv.slice(1), stdout: "null", stderr: "null", stdin: "null" })
      .output();
    return performance.now() - started;
  };
  const bare: number[] = [];
  const wrapped: number[] = [];
  for (let i = 0; i < 30; i++) {
    bare.push(await spawn(["true"]));
    wrapped.push(await spawn(["script", "-qefc", "true", "/dev/null"]));
  }
  const [p, t, f] = [median(plain), median(pty), median(pipe)];
  const scriptCost = median(wrapped) - median(bare);
  const ms = (x: number) => Math.round(x * 100) / 100;
  return [
    {
      name: `reference: shell \`true\` (Trellis set${
        sandbox.available ? ", bwrap" : ", no sandbox"
      }), median of 30`,
      value: ms(p),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "exec_command `true` with tty:true (PTY), median of 30",
      value: ms(t),
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: "floor: exec_command `true` without a PTY, median of 30",
      value: ms(f),
      unit: "ms",
      target: "info",
      pass: true,
    },
    {
      name: "floor: `script -qefc true /dev/null` − bare `true` spawn (the PTY wrapper alone), median of 30",
      value: ms(scriptCost),
      unit: "ms",
      target: "info",
      pass: true,
    },
    {
      name: "floor of the ratio: (shell + that wrapper cost) ÷ shell",
      value: Math.round(((p + scriptCost) / p) * 100) / 100,
      unit: "×",
      target: "info",
      pass: true,
    },
    {
      name: "PTY exec_command ÷ shell, short command",
      value: Math.round((t / p) * 100) / 100,
      unit: "×",
      target: "≤ 1.2",
      pass: t / p <= 1.2,
    },
  ];
}
