/**
 * `deno task mutate [--all-tests] [--timeout-s N] [LIST|ID…]`: mutation testing by hand-picked
 * one-line mutants (scripts/mutate/mutants/*.json, see mutant_list.ts). Each mutant is applied
 * alone to a scratch copy of the tree and its named tests run (e2e files against a binary built
 * from the mutated copy); a mutant is killed when they fail. Prints killed/survived per mutant and
 * the total, and exits 1 below 95 % killed, 2 when a list is stale or the tests fail unmutated.
 *
 * `--all-tests` runs the whole suite (tests/ and every e2e file) per mutant instead. `LIST|ID`
 * (`loop`, `tools.json#2`) runs only those mutants.
 */
import { parseArgs } from "node:util";
import * as path from "node:path";
import { applyMutant, loadMutants, type Mutant, MutantListError } from "./mutate/mutant_list.ts";
import { makeScratchTree } from "./mutate/scratch_tree.ts";
import { allTests, runTests } from "./mutate/test_run.ts";

const THRESHOLD = 95;
const { values, positionals } = parseArgs({
  args: Deno.args,
  options: {
    "all-tests": { type: "boolean", default: false },
    "timeout-s": { type: "string", default: "600" },
    root: { type: "string" }, // the tree to mutate (tests point it at a small fixture project)
  },
  allowPositionals: true,
});
const root = path.resolve(values.root ?? new URL("..", import.meta.url).pathname);
const timeoutMs = Number(values["timeout-s"]) * 1000;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let mutants: Mutant[];
try {
  mutants = await loadMutants(root, positionals);
} catch (error) {
  if (!(error instanceof MutantListError)) throw error;
  console.error(`mutate: ${error.message}`);
  Deno.exit(2);
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
Deno.exit(interrupt.signal.aborted ? 130 : code);

async function main(): Promise<number> {
  const started = performance.now();
  const testsOf = (m: Mutant) => values["all-tests"] ? allTests(root) : m.tests;
  const options = { timeoutMs, signal: interrupt.signal };
  const lists = new Set(mutants.map((m) => m.id.split("#")[0]));
  console.log(
    `mutate: ${mutants.length} mutants from ${[...lists].join(", ")} in a scratch copy ${scratch.dir}`,
  );

  // Unmutated, the same tests must pass: otherwise every mutant would look killed.
  const baselineTests = [...new Set(mutants.flatMap(testsOf))];
  const baseline = await runTests(scratch.dir, baselineTests, options);
  if (interrupt.signal.aborted) return 130;
  if (!baseline.passed) {
    console.error(`mutate: the tests fail without any mutant (${baseline.detail}); fix them first`);
    return 2;
  }
  console.log(`baseline: ${baselineTests.length} test paths pass unmutated (${seconds(baseline.ms)})`);

  const survivors: Mutant[] = [];
  for (const [index, mutant] of mutants.entries()) {
    const original = await scratch.read(mutant.file);
    await scratch.write(mutant.file, applyMutant(original, mutant));
    let outcome;
    try {
      outcome = await runTests(scratch.dir, testsOf(mutant), options);
    } finally {
      await scratch.write(mutant.file, original);
    }
    if (interrupt.signal.aborted) return 130;
    if (outcome.passed) survivors.push(mutant);
    const verdict = outcome.passed ? "SURVIVED" : "killed  ";
    console.log(
      `[${index + 1}/${mutants.length}] ${verdict} ${mutant.id} ${mutant.file}: ${mutant.why}\n` +
        `        ${outcome.passed ? "tests passed" : outcome.detail} (${seconds(outcome.ms)})`,
    );
  }

  const killed = mutants.length - survivors.length;
  const percent = (100 * killed) / mutants.length;
  console.log(
    `\n${killed}/${mutants.length} mutants killed (${percent.toFixed(1)} %), ${survivors.length} survived ` +
      `(${seconds(performance.now() - started)})`,
  );
  for (const m of survivors) console.log(`  survived: ${m.id} ${m.file}: ${m.why}`);
  if (percent < THRESHOLD) {
    console.log(`mutate: below ${THRESHOLD} % killed`);
    return 1;
  }
  return 0;
}
