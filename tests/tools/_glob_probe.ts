/**
 * Matches each [glob, path] pair of the JSON array in argv[2] (a file) with lib/tools' globMatcher
 * and prints the results as JSON: glob_pattern_test.ts runs it under Deno and under Bun, the runtime
 * the binary is built with, so both agree with the expected table.
 */
import { globMatcher } from "../../lib/tools/mod.ts";
import { platform } from "../../lib/platform/mod.ts";

const file = platform.args().at(-1)!;
const cases = JSON.parse(await platform.fs.readTextFile(file)) as [string, string][];
const results: (boolean | string)[] = [];
for (const [glob, path] of cases) {
  try {
    results.push((await globMatcher(glob))(path));
  } catch (error) {
    results.push(`threw: ${(error as Error).message}`);
  }
}
console.log(JSON.stringify(results));
