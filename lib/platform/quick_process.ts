/**
 * Dependency-free access to argv and stdout, for answering `--version` before anything else is
 * loaded (a cold start then costs what the runtime costs).
 */
// deno-lint-ignore no-explicit-any
const G = globalThis as any;

export function quickArgs(): string[] {
  return G.Bun ? G.process.argv.slice(2) : [...G.Deno.args];
}

export async function quickPrint(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  if (G.Bun) await G.Bun.write(G.Bun.stdout, bytes);
  else await G.Deno.stdout.write(bytes);
}
