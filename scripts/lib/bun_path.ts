/**
 * The Bun binary the project's own npm dependencies installed (`node_modules/.bin/bun`, devDependency
 * `bun`, postinstall allowed by the tasks' `deno install --allow-scripts=npm:bun`), so the README's
 * commands need nothing but Node.js and npm. A global `bun` is never preferred: it could differ from
 * the version the binary is built and tested with.
 */
const root = new URL("../../", import.meta.url).pathname;

export const BUN_PATH = `${root}node_modules/.bin/bun`;

/** The argv prefix that runs Bun, with a clear error when `deno install` has not run. */
export function bunCommand(): string {
  try {
    Deno.statSync(BUN_PATH);
  } catch {
    throw new Error(
      `Bun is missing at ${BUN_PATH}: run \`deno install --allow-scripts=npm:bun\` (the tasks do it)`,
    );
  }
  return BUN_PATH;
}
