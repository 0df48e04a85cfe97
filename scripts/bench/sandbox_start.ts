/**
 * Issue #20's figure: sandbox start with the kernel interfaces read-only (item 1) and the seccomp
 * filter (items 6 and 12: setuid modes, AF_UNIX sockets with the network off) against today's
 * wrapper — the same profile without those two parts, measured in the same run — and what each part
 * costs. `/bin/true` runs under each variant through `runCommand`, as the shell tool runs commands;
 * the variants alternate, each figure is the median of 50. Run alone:
 * `deno run -A scripts/bench/sandbox_start.ts`, or `deno run -A scripts/bench.ts sandbox_start`.
 */
import { detectSandbox, platform, runCommand, sandboxArgv } from "../../lib/platform/mod.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const RUNS = 50;

function row(name: string, value: number, unit: string, target: string, pass: boolean): BenchRow {
  return { name, value: Math.round(value * 1000) / 1000, unit, target, pass };
}

/** The argv without the seccomp hand-over: bwrap directly, no `--seccomp 9`. */
function withoutSeccomp(argv: string[]): string[] {
  if (argv[0] !== "/bin/sh") return argv;
  const bwrap = argv.slice(4);
  return bwrap[1] === "--seccomp" ? [bwrap[0], ...bwrap.slice(3)] : bwrap;
}

/** The argv without the read-only binds over the kernel interfaces (/proc/sys, /proc/irq, …, /sys). */
function withoutKernel(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const kernel = argv[i] === "--ro-bind" && argv[i + 1] === argv[i + 2] &&
      (argv[i + 1].startsWith("/proc/") || argv[i + 1] === "/sys");
    if (kernel) i += 2;
    else out.push(argv[i]);
  }
  return out;
}

export async function bench(): Promise<BenchRow[]> {
  const sandbox = await detectSandbox(platform);
  if (!sandbox.available) {
    return [row(`sandbox_start: no sandbox here (${sandbox.reason})`, NaN, "", "", false)];
  }
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-bench-sandbox-"));
  try {
    const ws = `${root}/ws`;
    const home = `${root}/home`;
    await platform.fs.mkdir(ws);
    await platform.fs.mkdir(home);
    const policy = {
      mode: "workspace-write" as const,
      writableRoots: [ws],
      networkAccess: false,
      cwd: ws,
      trellisHome: home,
      env: platform.envAll(),
    };
    const variants = {
      // Built per call, as the shell tool does: the argv's own cost counts.
      full: () => sandboxArgv(["/bin/true"], policy, sandbox),
      today: () => withoutKernel(withoutSeccomp(sandboxArgv(["/bin/true"], policy, sandbox))),
      kernel: () => withoutSeccomp(sandboxArgv(["/bin/true"], policy, sandbox)),
      seccomp: () => withoutKernel(sandboxArgv(["/bin/true"], policy, sandbox)),
      // The `/bin/sh` exec that hands bwrap the filter, without the filter: the hand-over's own share.
      shell: () => ["/bin/sh", "-c", 'exec "$@"', "sh", ...variants.today()],
    };
    const env = { PATH: "/usr/bin:/bin" };
    const time = async (make: () => string[]) => {
      const started = performance.now();
      const argv = make();
      const result = await runCommand(platform, { cmd: argv, cwd: ws, env });
      if (result.code !== 0) throw new Error(`${argv.join(" ")} failed: ${result.stderr}`);
      return performance.now() - started;
    };
    const names = Object.keys(variants) as (keyof typeof variants)[];
    const walls = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<
      typeof names[number],
      number[]
    >;
    const plain: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      plain.push(await time(() => ["/bin/true"]));
      // A rotating order: a bwrap run waits for the namespaces the one before left to be torn down.
      for (let j = 0; j < names.length; j++) {
        const name = names[(i + j) % names.length];
        walls[name].push(await time(variants[name]));
      }
    }
    const m = Object.fromEntries(names.map((n) => [n, median(walls[n])])) as Record<
      typeof names[number],
      number
    >;
    // Each part and the ratio from the same iteration's runs (paired), not from two medians apart.
    const paired = (f: (i: number) => number) => median([...Array(RUNS).keys()].map(f));
    const over = (name: typeof names[number]) => paired((i) => walls[name][i] - walls.today[i]);
    const ratio = paired((i) => walls.full[i] / walls.today[i]);
    return [
      row(
        `sandbox_start: plain spawn of /bin/true (reference), median of ${RUNS}`,
        median(plain),
        "ms",
        "—",
        true,
      ),
      row(
        `sandbox_start: today's wrapper (the #13 profile: no kernel binds, no seccomp), median of ${RUNS}`,
        m.today,
        "ms",
        "—",
        true,
      ),
      row(
        `sandbox_start: #20 profile (kernel interfaces read-only, seccomp filter), median of ${RUNS}`,
        m.full,
        "ms",
        "—",
        true,
      ),
      row(
        `sandbox_start: #20 profile over today's wrapper, median of ${RUNS} paired runs`,
        ratio,
        "×",
        "<= 1.2 ×",
        ratio <= 1.2,
      ),
      row(
        "sandbox_start: part: read-only /proc/sys (item 1), paired median",
        over("kernel"),
        "ms",
        "—",
        true,
      ),
      row(
        "sandbox_start: part: seccomp filter with its /bin/sh hand-over (items 6, 12), paired median",
        over("seccomp"),
        "ms",
        "—",
        true,
      ),
      row("sandbox_start: of which the /bin/sh exec alone, paired median", over("shell"), "ms", "—", true),
    ];
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
}

if (import.meta.main) {
  for (const r of await bench()) {
    console.log(`${r.pass ? "PASS" : "FAIL"} ${r.name}: ${r.value} ${r.unit} (${r.target})`);
  }
}
