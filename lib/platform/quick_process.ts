/**
 * Dependency-free access to argv and stdout, for answering `--version` before anything else is
 * loaded (a cold start then costs what the runtime costs).
 */
// deno-lint-ignore no-explicit-any
const G = globalThis as any;

export function quickArgs(): string[] {
  return G.Bun ? G.process.argv.slice(2) : [...G.Deno.args];
}

/** The runtime and its version, as `--version` prints them: "bun 1.3.1", "deno 2.5.0". */
export function quickRuntime(): string {
  return G.Bun ? `bun ${G.Bun.version}` : `deno ${G.Deno.version.deno}`;
}

export async function quickPrint(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  if (G.Bun) await G.Bun.write(G.Bun.stdout, bytes);
  else await G.Deno.stdout.write(bytes);
}
