/**
 * Built-in tool figures: per-call overhead of the file tools, search over a generated tree, and the
 * cost bubblewrap adds to a shell command. Run alone: `deno run -A scripts/bench/tools.ts`.
 */
import { detectSandbox, platform, runCommand, sandboxArgv } from "../../lib/platform/mod.ts";
import type { ToolRunContext } from "../../lib/shared/mod.ts";
import {
  type BuiltinTool,
  checkPathAccess,
  createBuiltinTools,
  type PermissionProfile,
} from "../../lib/tools/mod.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

async function timeCalls(
  tool: BuiltinTool,
  raw: unknown,
  ctx: ToolRunContext,
  runs: number,
): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const args = tool.parseArguments(raw);
    tool.approval(args, { cwd: ctx.cwd });
    const result = await tool.run(args, ctx);
    samples.push(performance.now() - started);
    if (result.status !== "success") throw new Error(`${tool.name} failed: ${result.output}`);
  }
  return median(samples);
}

async function makeTree(ws: string, files: number): Promise<void> {
  for (let i = 0; i < files; i++) {
    const dir = `${ws}/pkg${i % 20}/mod${i % 7}`;
    if (i < 140) await platform.fs.mkdir(dir);
    await platform.fs.writeTextFile(
      `${dir}/file${i}.ts`,
      `export const value${i} = ${i};\n// TODO item ${i}\n`,
    );
  }
}

function row(name: string, value: number, unit: string, limit: number): BenchRow {
  return {
    name,
    value: Math.round(value * 1000) / 1000,
    unit,
    target: `<= ${limit} ${unit}`,
    pass: value <= limit,
  };
}

export async function bench(): Promise<BenchRow[]> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-bench-tools-"));
  try {
    const ws = `${root}/ws`;
    await platform.fs.mkdir(ws);
    await makeTree(ws, 2000);
    await platform.fs.writeTextFile(`${ws}/small.txt`, "line\n".repeat(200));
    const profile: PermissionProfile = {
      sandboxMode: "workspace-write",
      approvalPolicy: "on-request",
      workspace: ws,
      writableRoots: [ws],
      readableRoots: [],
      networkAccess: false,
    };
    const sandbox = await detectSandbox(platform);
    const env = { PATH: platform.env("PATH") ?? "/usr/bin:/bin", HOME: root };
    const quiet = { ...platform, envAll: () => env, env: (n: string) => env[n as keyof typeof env] };
    const tools = Object.fromEntries(
      createBuiltinTools({ platform: quiet, profile, sandbox }).map((t) => [t.name, t]),
    );
    const full = Object.fromEntries(
      createBuiltinTools({
        platform: quiet,
        profile: { ...profile, sandboxMode: "danger-full-access" },
        sandbox,
      })
        .map((t) => [t.name, t]),
    );
    const ctx: ToolRunContext = {
      callId: "b",
      cwd: ws,
      signal: new AbortController().signal,
      emit: () => {},
      escalated: false,
    };
    const rows: BenchRow[] = [];
    const checks: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const started = performance.now();
      checkPathAccess(profile, `pkg${i % 20}/../new/file${i}.ts`, "write");
      checks.push(performance.now() - started);
    }
    rows.push(row("tools: path check (realpath + roots), median", median(checks) * 1000, "µs", 100));
    rows.push(
      row(
        "tools: read_file call (200 lines), median of 200",
        await timeCalls(tools.read_file, '{"path":"small.txt"}', ctx, 200),
        "ms",
        2,
      ),
    );
    rows.push(
      row(
        "tools: write_file call, median of 200",
        await timeCalls(tools.write_file, { path: "out/w.txt", content: "x\n" }, ctx, 200),
        "ms",
        5,
      ),
    );
    rows.push(
      row(
        "tools: glob **/*.ts over 2,000 files, median of 5",
        await timeCalls(tools.glob, { pattern: "**/*.ts" }, ctx, 5),
        "ms",
        250,
      ),
    );
    rows.push(
      row(
        "tools: grep TODO over 2,000 files, median of 5",
        await timeCalls(tools.grep, { pattern: "TODO item 1999" }, ctx, 5),
        "ms",
        500,
      ),
    );
    // Plain and sandboxed calls alternate, and the overhead is the median of each pair's
    // difference: two separate medians taken a second apart differ by more than bwrap costs when
    // this machine's speed drifts.
    const plain: number[] = [];
    const overhead: number[] = [];
    for (let i = 0; i < 10; i++) {
      plain.push(await timeCalls(full.shell, { command: "true" }, ctx, 1));
      if (sandbox.available) {
        overhead.push(await timeCalls(tools.shell, { command: "true" }, ctx, 1) - plain[i]);
      }
    }
    rows.push(row("tools: shell `true` unsandboxed (bash -lc), median of 10", median(plain), "ms", 200));
    if (sandbox.available) {
      rows.push(
        row(
          "tools: shell bwrap overhead over unsandboxed, median of 10 alternating pairs",
          median(overhead),
          "ms",
          50,
        ),
      );
    }
    if (sandbox.available) rows.push(...await hardeningRows(sandbox, root, ws));
    return rows;
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
}

/**
 * Issue #13's figure: what the hardened profile (no capabilities, user namespace, protected names
 * with their placeholders, host sockets and secrets masked, argv built per call as shell does) costs
 * over the wrapper before it, and what that wrapper cost over a plain spawn. Plain, old and hardened
 * runs of `/bin/true` alternate, and each overhead is the median of its pairs' differences.
 */
const RUNS = 50;

async function hardeningRows(sandbox: { bwrap: string; flags: string[] }, root: string, ws: string) {
  const home = `${root}/home`;
  await platform.fs.mkdir(home);
  const env = { PATH: "/usr/bin:/bin" };
  const run = (cmd: string[]) => runCommand(platform, { cmd, cwd: ws, env });
  const time = async (make: () => string[]) => {
    const started = performance.now();
    const result = await run(make());
    if (result.code !== 0) throw new Error(`${make()[0]} failed: ${result.stderr}`);
    return performance.now() - started;
  };
  // The wrapper as it was before #13 (lib/platform/sandbox.ts at 0be47e3), for the comparison.
  const old = () => [
    sandbox.bwrap,
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", ws, ws, "--unshare-net"],
    ...["--unshare-pid", "--die-with-parent", "--new-session", "--chdir", ws, "--", "/bin/true"],
  ];
  const policy = {
    mode: "workspace-write" as const,
    writableRoots: [ws],
    networkAccess: false,
    cwd: ws,
    trellisHome: home,
    env: platform.envAll(),
  };
  const hardened = () => sandboxArgv(["/bin/true"], policy, sandbox);
  // The same profile without the read-only mounts over the protected names (.git, .trellis, …, one
  // bind mount each): the part of the cost issue #13 item 5 buys.
  const withoutProtected = () => {
    const argv = hardened();
    const kept: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      if (argv[i] === "--ro-bind" && argv[i + 1] === "/dev/null") i += 2;
      else kept.push(argv[i]);
    }
    return kept;
  };
  const plain: number[] = [];
  const wrapper: number[] = [];
  const hardening: number[] = [];
  const protectedMounts: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // The order of the two bwrap runs alternates: one that follows another waits for the network
    // namespace the first left behind to be torn down, which would bias a fixed order.
    const p = await time(() => ["/bin/true"]);
    const o = i % 2 === 0 ? await time(old) : 0;
    const h = await time(hardened);
    const o2 = i % 2 === 1 ? await time(old) : o;
    plain.push(p);
    wrapper.push(o2 - p);
    hardening.push(h - o2);
    protectedMounts.push(h - await time(withoutProtected));
  }
  return [
    row(`tools: plain spawn of /bin/true, median of ${RUNS}`, median(plain), "ms", 50),
    row(
      `tools: pre-#13 bwrap wrapper over a plain spawn, median of ${RUNS} alternating runs`,
      median(wrapper),
      "ms",
      50,
    ),
    row(
      `tools: hardened profile over the pre-#13 wrapper, median of ${RUNS} alternating runs`,
      median(hardening),
      "ms",
      3,
    ),
    row(
      `tools: of which the read-only mounts over the ${
        hardened().filter((a) => a === "/dev/null").length
      } protected names (#13 item 5), median of ${RUNS} pairs`,
      median(protectedMounts),
      "ms",
      50,
    ),
  ];
}

if (import.meta.main) {
  for (const r of await bench()) {
    console.log(`${r.pass ? "PASS" : "FAIL"} ${r.name}: ${r.value} ${r.unit} (${r.target})`);
  }
}
