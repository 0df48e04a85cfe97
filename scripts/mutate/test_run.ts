/**
 * Runs a set of test paths in a tree: the unit tests with `deno test`, then the e2e files
 * (`*.e2e.ts`) against a binary compiled from that same tree. Stops at the first failure.
 */
import * as path from "node:path";
import { platform, runCommand } from "../../lib/platform/mod.ts";

export interface TestOutcome {
  passed: boolean;
  /** What failed, for the report: "tests/x_test.ts: 2 failed (first: name)", "build failed", "timed out". */
  detail: string;
  ms: number;
}

export interface TestRunOptions {
  /** Each command (test run, build) is killed, process group and all, after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** `deno test --parallel` (default); false runs the test files one after another. */
  parallel?: boolean;
  /** Stop at the first failing test (`--fail-fast`): a killed mutant needs no more. */
  failFast?: boolean;
  /** Added to the tests' environment (DENO_COVERAGE_DIR for the baseline's coverage). */
  env?: Record<string, string>;
}

const isE2e = (p: string) => p.endsWith(".e2e.ts");

/** Every test: tests/ (unit) and each tests/e2e/*.e2e.ts. */
export function allTests(root: string): string[] {
  const e2e = [...Deno.readDirSync(path.join(root, "tests/e2e"))].map((e) => e.name).filter(isE2e).sort();
  return ["tests/", ...e2e.map((name) => `tests/e2e/${name}`)];
}

export async function runTests(dir: string, tests: string[], options: TestRunOptions): Promise<TestOutcome> {
  const started = performance.now();
  const done = (passed: boolean, detail: string) => ({ passed, detail, ms: performance.now() - started });
  // The developer's whole environment (DENO_DIR, proxies…), without a TRELLIS_BIN of their own.
  const { TRELLIS_BIN: _, ...inherited } = platform.envAll();
  const env = { ...inherited, NO_COLOR: "1", ...options.env };
  const run = (cmd: string[], extra: Record<string, string> = {}) =>
    runCommand(platform, {
      cmd,
      cwd: dir,
      env: { ...env, ...extra },
      timeoutMs: options.timeoutMs,
      maxOutputBytes: 64 * 1024 * 1024,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  const deno = platform.execPath();
  const unit = tests.filter((t) => !isE2e(t));
  const e2e = tests.filter(isE2e);
  const parallel = [
    ...(options.parallel === false ? [] : ["--parallel"]),
    ...(options.failFast ? ["--fail-fast"] : []),
  ];
  if (unit.length) {
    const result = await run([deno, "test", "-A", ...parallel, ...unit]);
    if (result.timedOut) return done(false, `${unit.join(" ")}: timed out`);
    if (result.code !== 0) {
      return done(false, `${unit.join(" ")}: ${failureSummary(result.stdout + result.stderr)}`);
    }
  }
  if (e2e.length) {
    // The scratch copy is no git tree, and a mutated build is dirty by definition: name it so, or
    // the e2e check of `--version` (a commit baked into every binary) fails before any mutant.
    const build = await run([deno, "run", "-A", "scripts/compile.ts", "dist/trellis"], {
      TRELLIS_BUILD_COMMIT: "000000000000-dirty",
    });
    if (build.code !== 0) return done(false, `build failed: ${lastLine(build.stdout + build.stderr)}`);
    const bin = path.join(dir, "dist/trellis");
    const result = await run([deno, "test", "-A", ...parallel, ...e2e], { TRELLIS_BIN: bin });
    if (result.timedOut) return done(false, `${e2e.join(" ")}: timed out`);
    if (result.code !== 0) {
      return done(false, `${e2e.join(" ")}: ${failureSummary(result.stdout + result.stderr)}`);
    }
  }
  return done(true, "all passed");
}

/** "2 failed (first: <test name>)" from deno test's output (NO_COLOR), or its type-check error. */
export function failureSummary(text: string): string {
  const summary = text.match(/^FAILED \| \d+ passed(?: \(\d+ steps?\))? \| (\d+) failed/m);
  if (summary) {
    const errors = text.slice(text.lastIndexOf(" ERRORS "));
    const first = errors.match(/^(.+?) => \.\/\S+:\d+:\d+$/m)?.[1];
    return `${summary[1]} failed${first ? ` (first: ${first})` : ""}`;
  }
  const typeError = text.match(/^(?:error: )?(TS\d+ .+)$/m)?.[1];
  return typeError ? `type check failed: ${typeError}` : `exited non-zero: ${lastLine(text)}`;
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1) ?? "";
}
