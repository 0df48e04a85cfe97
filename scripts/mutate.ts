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
 * against the tests that import its file (or all unit tests). A mutant the type check rejects is
 * killed by the compiler, counted apart. Prints the kill rate and every survivor; exits 0 when the
 * run completes (the rate is a figure to read, not a gate), 2 on bad input.
 */
import { parseArgs } from "node:util";
import * as path from "node:path";
import { applyMutant, loadMutants, MutantListError } from "./mutate/mutant_list.ts";
import { type Job, PlanError, planGenerated } from "./mutate/generated_plan.ts";
import { makeScratchTree } from "./mutate/scratch_tree.ts";
import { allTests, runTests } from "./mutate/test_run.ts";

const THRESHOLD = 95;
const { values, positionals } = parseArgs({
  args: Deno.args,
  options: {
    "all-tests": { type: "boolean", default: false },
    "timeout-s": { type: "string", default: "600" },
    generate: { type: "boolean", default: false },
    sample: { type: "string" },
    seed: { type: "string", default: "1" },
    serial: { type: "boolean", default: false },
    root: { type: "string" }, // the tree to mutate (tests point it at a small fixture project)
  },
  allowPositionals: true,
});
const root = path.resolve(values.root ?? new URL("..", import.meta.url).pathname);
const timeoutMs = Number(values["timeout-s"]) * 1000;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fail = (message: string): never => {
  console.error(`mutate: ${message}`);
  Deno.exit(2);
};

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
const scratch = await makeScratchTree(root);
const stop = () => interrupt.abort();
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
let code = 0;
try {
  code = await main();
} finally {
  await scratch.remove();
}
if (interrupt.signal.aborted) {
  console.log(`mutate: interrupted; the working tree was never written and the scratch copy is removed`);
}
Deno.exit(interrupt.signal.aborted ? 130 : code);

async function main(): Promise<number> {
  const started = performance.now();
  const options = { timeoutMs, signal: interrupt.signal, parallel: !values.serial };
  const from = values.generate
    ? `generated from ${new Set(jobs.map((m) => m.file)).size} file(s)`
    : `from ${[...new Set(jobs.map((m) => m.id.split("#")[0]))].join(", ")}`;
  console.log(`mutate: ${jobs.length} mutants ${from} in a scratch copy ${scratch.dir}`);

  // Unmutated, the same tests must pass: otherwise every mutant would look killed.
  const baselineTests = [...new Set(jobs.flatMap((m) => m.tests))];
  const baseline = await runTests(scratch.dir, baselineTests, options);
  if (interrupt.signal.aborted) return 130;
  if (!baseline.passed) {
    console.error(`mutate: the tests fail without any mutant (${baseline.detail}); fix them first`);
    return 2;
  }
  console.log(`baseline: ${baselineTests.length} test paths pass unmutated (${seconds(baseline.ms)})`);

  const survivors: Job[] = [];
  let byCompiler = 0;
  for (const [index, mutant] of jobs.entries()) {
    const original = await scratch.read(mutant.file);
    await scratch.write(mutant.file, mutant.apply(original));
    let outcome;
    try {
      outcome = await runTests(scratch.dir, mutant.tests, options);
    } finally {
      await scratch.write(mutant.file, original);
    }
    if (interrupt.signal.aborted) return 130;
    // deno test type-checks first: a mutant that does not compile never reaches a test.
    const compiler = !outcome.passed && /(?:^|: )type check failed/.test(outcome.detail);
    if (outcome.passed) survivors.push(mutant);
    if (compiler) byCompiler++;
    const verdict = outcome.passed ? "SURVIVED" : compiler ? "compiler" : "killed  ";
    console.log(
      `[${index + 1}/${jobs.length}] ${verdict} ${mutant.id} ${mutant.file}: ${mutant.why}\n` +
        `        ${outcome.passed ? "tests passed" : outcome.detail} (${seconds(outcome.ms)})`,
    );
  }

  const killed = jobs.length - survivors.length;
  const percent = (100 * killed) / jobs.length;
  const split = values.generate
    ? `: ${killed - byCompiler} by the tests, ${byCompiler} by the type check`
    : "";
  console.log(
    `\n${killed}/${jobs.length} mutants killed (${
      percent.toFixed(1)
    } %)${split}, ${survivors.length} survived ` +
      `(${seconds(performance.now() - started)})`,
  );
  for (const m of survivors) {
    console.log(`  survived: ${m.id} ${m.file}: ${m.why}`);
    if (m.diff) {
      console.log(`      - ${m.diff.before}\n      + ${m.diff.after}\n      tests: ${m.tests.join(" ")}`);
    }
  }
  if (values.generate) return 0;
  if (percent < THRESHOLD) {
    console.log(`mutate: below ${THRESHOLD} % killed`);
    return 1;
  }
  return 0;
}
