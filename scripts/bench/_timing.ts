/** Timing helpers shared by the bench sections. */

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export type RunOptions = { cwd?: string; env?: Record<string, string> };

/**
 * Wall time of one run, spawned directly (no wrapper process whose start would count) with only the
 * environment given.
 */
export async function timed(
  argv: string[],
  options: RunOptions = {},
): Promise<{ wall: number; code: number }> {
  const started = performance.now();
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdout: "null",
    stderr: "null",
  }).output();
  return { wall: performance.now() - started, code: out.code };
}

/** Median wall time of `argv` as a process, in ms. */
export async function medianWall(argv: string[], options: RunOptions & { runs: number }): Promise<number> {
  const walls: number[] = [];
  for (let i = 0; i < options.runs; i++) walls.push((await timed(argv, options)).wall);
  return median(walls);
}
