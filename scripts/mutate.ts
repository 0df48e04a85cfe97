/**
 * `deno task mutate [--all-tests] [--timeout-s N] [LIST|ID…]`: mutation testing by hand-picked
 * one-line mutants (scripts/mutate/mutants/*.json, see mutant_list.ts). Each mutant is applied
 * alone to a scratch copy of the tree and its named tests run (e2e files against a binary built
 * from the mutated copy); a mutant is killed when they fail. Prints killed/survived per mutant and
 * the total, and exits 1 below 95 % killed, 2 when a list is stale or the tests fail unmutated.
 *
 * `--all-tests` runs the whole suite (tests/ and every e2e file) per mutant instead. `LIST|ID`
 * (`loop`, `tools.json#2`) runs only those mutants.
 *
 * `deno task mutate --generate [FILES…] [--sample N] [--seed S] [--serial]`: mutants derived from
 * the files' syntax trees instead (scripts/mutate/generate.ts; no FILES: all of lib/), each run
 * against the tests that import its file (or all unit tests) and, of those, only the ones whose
 * unmutated run executed its lines (coverage.ts). A mutant the type check rejects is killed by the
 * compiler, counted apart. Prints the kill rate and every survivor; exits 0 when the run completes
 * (the rate is a figure to read, not a gate), 2 on bad input.
 *
 * `--jobs N` (default 2) mutants run at once, each in its own scratch copy; the machine is shared.
 */
import { parseArgs } from "node:util";
import * as path from "node:path";
import { applyMutant, loadMutants, MutantListError } from "./mutate/mutant_list.ts";
import { type Job, PlanError, planGenerated } from "./mutate/generated_plan.ts";
import { makeScratchTree, type ScratchTree } from "./mutate/scratch_tree.ts";
import { allTests, failureSummary, runTests, type TestOutcome } from "./mutate/test_run.ts";
import { platform, runCommand } from "../lib/platform/mod.ts";
import { type LineHits, linesHit, reaches } from "./mutate/coverage.ts";
import { CoverageCache } from "./mutate/coverage_cache.ts";

const THRESHOLD = 95;
const { values, positionals } = parseArgs({
  args: Deno.args,
  options: {
    "all-tests": { type: "boolean", default: false },
    "timeout-s": { type: "string" },
    jobs: { type: "string", default: "2" },
    generate: { type: "boolean", default: false },
    sample: { type: "string" },
    seed: { type: "string", default: "1" },
    serial: { type: "boolean", default: false },
    only: { type: "string" }, // comma-separated generated ids: re-run these (survivors) of the sample
    "no-cache": { type: "boolean", default: false },
    root: { type: "string" }, // the tree to mutate (tests point it at a small fixture project)
  },
  allowPositionals: true,
});
const root = path.resolve(values.root ?? new URL("..", import.meta.url).pathname);
// Lists: 10 minutes per mutant. Generated: unless given, 3× what its tests took unmutated + 30 s.
const timeoutMs = values["timeout-s"] === undefined ? null : Number(values["timeout-s"]) * 1000;
const jobCount = Number(values.jobs);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fail = (message: string): never => {
  console.error(`mutate: ${message}`);
  Deno.exit(2);
};

if (!(Number.isInteger(jobCount) && jobCount > 0)) {
  fail(`--jobs must be a positive whole number, got "${values.jobs}"`);
}
if (timeoutMs !== null && !(timeoutMs > 0)) {
  fail(`--timeout-s must be a positive number, got "${values["timeout-s"]}"`);
}
let jobs: Job[];
if (values.generate) {
  const sample = values.sample === undefined ? undefined : Number(values.sample);
  const seed = Number(values.seed);
  if (sample !== undefined && !(Number.isInteger(sample) && sample > 0)) {
    fail(`--sample must be a positive whole number, got "${values.sample}"`);
  }
  if (!Number.isInteger(seed)) fail(`--seed must be a whole number, got "${values.seed}"`);
  try {
    const plan = planGenerated(root, positionals, {
      sample,
      seed,
      ...(values["all-tests"] ? { tests: allTests(root) } : {}),
    });
    for (const note of plan.notes) console.log(`mutate: ${note}`);
    jobs = plan.jobs;
    if (values.only !== undefined) {
      const wanted = values.only.split(",").map((id) => id.trim()).filter(Boolean);
      const unknown = wanted.filter((id) => !jobs.some((j) => j.id === id));
      if (unknown.length) fail(`--only: not in this sample: ${unknown.join(", ")}`);
      jobs = jobs.filter((j) => wanted.includes(j.id));
      console.log(`mutate: --only: running ${jobs.length} of the sample`);
    }
  } catch (error) {
    if (!(error instanceof PlanError)) throw error;
    jobs = fail(error.message);
  }
  if (!jobs.length) {
    console.log("mutate: nothing to mutate");
    Deno.exit(0);
  }
} else {
  try {
    jobs = (await loadMutants(root, positionals)).map((m) => ({
      ...m,
      tests: values["all-tests"] ? allTests(root) : m.tests,
      apply: (content: string) => applyMutant(content, m),
    }));
  } catch (error) {
    if (!(error instanceof MutantListError)) throw error;
    jobs = fail(error.message);
  }
}

const interrupt = new AbortController();
const stop = () => interrupt.abort();
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
const scratches: ScratchTree[] = [];
const coverageRoot = await Deno.makeTempDir({ prefix: "trellis-mutate-coverage-" });
let code = 0;
try {
  for (let i = 0; i < Math.min(jobCount, jobs.length) && !interrupt.signal.aborted; i++) {
    scratches.push(await makeScratchTree(root));
  }
  if (!interrupt.signal.aborted) code = await main();
} finally {
  for (const scratch of scratches) await scratch.remove();
  await Deno.remove(coverageRoot, { recursive: true });
}
if (interrupt.signal.aborted) {
  console.log(`mutate: interrupted; the working tree was never written and the scratch copy is removed`);
}
Deno.exit(interrupt.signal.aborted ? 130 : code);

/** Runs `work` over `items`, at most one per scratch copy at a time, in order of start. */
async function pool<T>(items: T[], work: (item: T, scratch: ScratchTree, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(scratches.map(async (scratch) => {
    while (next < items.length && !interrupt.signal.aborted) {
      const index = next++;
      await work(items[index], scratch, index);
    }
  }));
}

function isTestFile(t: string): boolean {
  return /(?:_test|\.test)\.(?:ts|tsx|js|mjs)$/.test(t) && !t.endsWith(".e2e.ts");
}

async function main(): Promise<number> {
  const started = performance.now();
  const base = { signal: interrupt.signal, parallel: !values.serial };
  const from = values.generate
    ? `generated from ${new Set(jobs.map((m) => m.file)).size} file(s)`
    : `from ${[...new Set(jobs.map((m) => m.id.split("#")[0]))].join(", ")}`;
  console.log(
    `mutate: ${jobs.length} mutants ${from}, ${scratches.length} at a time, in scratch copies ` +
      scratches.map((s) => s.dir).join(" "),
  );

  // Unmutated, the same tests must pass: otherwise every mutant would look killed.
  const baselineTests = [...new Set(jobs.flatMap((m) => m.tests))];
  const took = new Map<string, number>();
  const hits = new Map<string, LineHits>();
  if (values.generate) {
    // Each test file alone, recording which lines of lib/ it runs (its subprocesses' too),
    // remembered per test file outside the repo until the code or that test changes.
    const cache = values["no-cache"] ? null : await CoverageCache.open(root);
    let failed: string | null = null;
    let fromCache = 0;
    await pool(baselineTests, async (test, scratch, index) => {
      const known = cache && isTestFile(test) ? await cache.get(test) : null;
      if (known) {
        fromCache++;
        took.set(test, known.ms);
        hits.set(test, known.hits);
        return;
      }
      const coverage = isTestFile(test) ? `${coverageRoot}/${index}` : null;
      const outcome = await runTests(scratch.dir, [test], {
        ...base,
        timeoutMs: timeoutMs ?? 900_000,
        ...(coverage ? { env: { DENO_COVERAGE_DIR: coverage } } : {}),
      });
      took.set(test, outcome.ms);
      if (!outcome.passed) failed ??= `${outcome.detail}`;
      else if (coverage) {
        const lines = await linesHit(scratch.dir, coverage, null, interrupt.signal);
        if (interrupt.signal.aborted) return;
        hits.set(test, lines);
        await cache?.set(test, { ms: outcome.ms, hits: lines });
      }
      console.log(`baseline: ${test} (${seconds(outcome.ms)})`);
    });
    if (interrupt.signal.aborted) return 130;
    if (failed) {
      console.error(`mutate: the tests fail without any mutant (${failed}); fix them first`);
      return 2;
    }
    const total = [...took.values()].reduce((a, b) => a + b, 0);
    console.log(
      `baseline: ${baselineTests.length} test paths pass unmutated, each alone with coverage ` +
        `(${seconds(performance.now() - started)}; ${fromCache} remembered from ${
          cache?.dir ?? "no cache"
        }, ` +
        `${seconds(total)} of test runs when measured)`,
    );
  } else {
    const baseline = await runTests(scratches[0].dir, baselineTests, {
      ...base,
      timeoutMs: timeoutMs ?? 600_000,
    });
    if (interrupt.signal.aborted) return 130;
    if (!baseline.passed) {
      console.error(`mutate: the tests fail without any mutant (${baseline.detail}); fix them first`);
      return 2;
    }
    console.log(`baseline: ${baselineTests.length} test paths pass unmutated (${seconds(baseline.ms)})`);
  }

  const survivors: { job: Job; tests: string[]; unreached: boolean }[] = [];
  let byCompiler = 0;
  let unreached = 0;
  await pool(jobs, async (mutant, scratch, index) => {
    // Generated: only the tests that ran the mutated lines (a directory, like tests/, runs whole),
    // or the line either side: `deno coverage` counts a line 0 when any part of it did not run, so
    // `if (once) x.once = true;` never taken reads as unrun although its condition ran.
    const tests = values.generate && mutant.lines
      ? mutant.tests.filter((t) =>
        !hits.has(t) || reaches(hits.get(t)!, mutant.file, mutant.lines![0] - 1, mutant.lines![1] + 1)
      )
      : mutant.tests;
    const original = await scratch.read(mutant.file);
    await scratch.write(mutant.file, mutant.apply(original));
    let outcome: TestOutcome;
    try {
      outcome = tests.length
        ? await runTests(scratch.dir, tests, {
          ...base,
          parallel: base.parallel && !values.generate,
          failFast: values.generate,
          timeoutMs: timeoutMs ??
            (values.generate ? 30_000 + 3 * tests.reduce((a, t) => a + (took.get(t) ?? 60_000), 0) : 600_000),
        })
        // No test runs these lines: only the type check can still reject the change.
        : await typeCheck(scratch.dir, mutant.file);
    } finally {
      await scratch.write(mutant.file, original);
    }
    if (interrupt.signal.aborted) return;
    // deno test type-checks first: a mutant that does not compile never reaches a test.
    const compiler = !outcome.passed && /(?:^|: )type check failed/.test(outcome.detail);
    if (outcome.passed) survivors.push({ job: mutant, tests, unreached: !tests.length });
    if (outcome.passed && !tests.length) unreached++;
    if (compiler) byCompiler++;
    const verdict = outcome.passed ? "SURVIVED" : compiler ? "compiler" : "killed  ";
    const detail = outcome.passed
      ? (tests.length ? "tests passed" : "no test runs this line; the type check passed")
      : outcome.detail;
    console.log(
      `[${index + 1}/${jobs.length}] ${verdict} ${mutant.id} ${mutant.file}: ${mutant.why}\n` +
        `        ${detail} (${seconds(outcome.ms)})`,
    );
  });
  if (interrupt.signal.aborted) return 130;

  const killed = jobs.length - survivors.length;
  const percent = (100 * killed) / jobs.length;
  const split = values.generate
    ? `: ${killed - byCompiler} by the tests, ${byCompiler} by the type check`
    : "";
  const notReached = values.generate ? ` (${unreached} on lines no test runs)` : "";
  console.log(
    `\n${killed}/${jobs.length} mutants killed (${
      percent.toFixed(1)
    } %)${split}, ${survivors.length} survived${notReached} ` +
      `(${seconds(performance.now() - started)})`,
  );
  for (const { job: m, tests, unreached } of survivors) {
    console.log(`  survived: ${m.id} ${m.file}: ${m.why}`);
    if (m.diff) {
      console.log(
        `      - ${m.diff.before}\n      + ${m.diff.after}\n      tests: ${
          unreached ? `none runs line ${m.lines![0]} (of ${m.tests.join(" ")})` : tests.join(" ")
        }`,
      );
    }
  }
  if (values.generate) return 0;
  if (percent < THRESHOLD) {
    console.log(`mutate: below ${THRESHOLD} % killed`);
    return 1;
  }
  return 0;
}

/** `deno check` of the mutated file alone (and what it imports), as a test outcome. */
async function typeCheck(dir: string, file: string): Promise<TestOutcome> {
  const started = performance.now();
  const result = await runCommand(platform, {
    cmd: [platform.execPath(), "check", file],
    cwd: dir,
    env: { ...platform.envAll(), NO_COLOR: "1" },
    timeoutMs: timeoutMs ?? 300_000,
    maxOutputBytes: 16 * 1024 * 1024,
    signal: interrupt.signal,
  });
  const passed = result.code === 0;
  return {
    passed,
    detail: passed ? "type check passed" : `${file}: ${failureSummary(result.stdout + result.stderr)}`,
    ms: performance.now() - started,
  };
}
