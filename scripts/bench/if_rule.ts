/**
 * `if` rule benchmarks (#20 item 8): what reading a command line with the Bash parser costs. The
 * parser (unbash, lib/hooks/shell_parser.ts) is imported once per process, by the first judgement,
 * and each judgement parses the line again (plus each `-c` string in it).
 * References, measured in the same run: one bare hook spawn (`sh -c true`, what every hook run
 * costs anyway) for the load, and shell-quote's tokenizing of the same line (what `if` rules read
 * commands with before) for a judgement.
 */
import { judgeIfRule, parseIfRule } from "../../lib/hooks/mod.ts";
import { childEnv, platform, runCommand } from "../../lib/platform/mod.ts";
import { shellTokens } from "../../lib/shared/mod.ts";
import { bunCommand } from "../lib/bun_path.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const LINE = "cd repo && FOO=1 sudo -E timeout 60 bash -lc 'git fetch && git push origin main' | tee log";
const PROBE = new URL("./_if_rule_probe.ts", import.meta.url).pathname;

export async function bench(): Promise<BenchRow[]> {
  const dir = await platform.fs.makeTempDir("trellis-bench-if-rule-");
  const env = childEnv({ PATH: platform.env("PATH") ?? "/usr/bin:/bin" });
  const config = new URL("../../deno.json", import.meta.url).pathname;
  const loads = { deno: [] as number[], binary: [] as number[] };
  const spawns: number[] = [];
  try {
    // The probe built exactly as dist/trellis is (scripts/compile/bun_build.ts).
    const binary = `${dir}/probe`;
    const build = await runCommand(platform, {
      cmd: [bunCommand(), new URL("../compile/bun_build.ts", import.meta.url).pathname, binary, PROBE],
      cwd: dir,
      env: childEnv({ PATH: platform.env("PATH") ?? "/usr/bin:/bin", HOME: platform.homeDir() }),
    });
    if (build.code !== 0) throw new Error(`building the probe failed: ${build.stderr}`);
    const loadOf = (stdout: string) => JSON.parse(stdout).load as number;
    for (let i = 0; i < 5; i++) {
      const viaDeno = await runCommand(platform, {
        cmd: [platform.execPath(), "run", "-A", `--config=${config}`, PROBE],
        cwd: dir,
        env,
      });
      loads.deno.push(loadOf(viaDeno.stdout));
      loads.binary.push(loadOf((await runCommand(platform, { cmd: [binary], cwd: dir, env })).stdout));
      const started = performance.now();
      await runCommand(platform, { cmd: ["/bin/sh", "-c", "true"], cwd: dir, env });
      spawns.push(performance.now() - started);
    }
  } finally {
    await platform.fs.remove(dir, { recursive: true });
  }

  const parsed = parseIfRule("Bash(git push:*)");
  if (!parsed.ok) throw new Error(parsed.error);
  const call = { names: ["Bash"], input: { command: LINE }, cwd: "/", home: "/" };
  if (!(await judgeIfRule(parsed.rule, call)).matches) throw new Error("the bench line must match");
  const judged: number[] = [];
  const tokenized: number[] = [];
  for (let round = 0; round < 7; round++) {
    let started = performance.now();
    for (let i = 0; i < 200; i++) await judgeIfRule(parsed.rule, call);
    judged.push((performance.now() - started) / 200);
    started = performance.now();
    for (let i = 0; i < 200; i++) shellTokens(LINE);
    tokenized.push((performance.now() - started) / 200);
  }
  const spawn = median(spawns);
  const judge = median(judged);
  const tokens = median(tokenized);
  const loadRow = (where: string, ms: number): BenchRow => ({
    name: `if rule: Bash parser load, once per process, ${where} (${ms.toFixed(1)} ms; one bare hook spawn ` +
      `${spawn.toFixed(1)} ms)`,
    value: ms / spawn,
    unit: "× a hook spawn",
    target: "≤ 2×",
    pass: ms / spawn <= 2,
  });
  return [
    loadRow("dist/trellis build", median(loads.binary)),
    loadRow("deno run", median(loads.deno)),
    {
      name: `if rule: judging a 3-wrapper, 2-shell command line (${(judge * 1000).toFixed(0)} µs; ` +
        `shell-quote tokens of it ${(tokens * 1000).toFixed(0)} µs)`,
      value: judge / tokens,
      unit: "× shell-quote",
      target: "≤ 10×",
      pass: judge / tokens <= 10,
    },
  ];
}
