/**
 * Builds dist/trellis offline with Bun (`deno compile` needs a download this network refuses).
 * Bun resolves the same bare specifiers from node_modules that deno.json maps to npm:. The build
 * itself (flags and why) is scripts/compile/bun_build.ts, which runs under Bun.
 */
const outfile = Deno.args[0] ?? "dist/trellis";
const bun = await findBun();
const command = new Deno.Command(bun[0], {
  args: [...bun.slice(1), "scripts/compile/bun_build.ts", outfile],
  stdout: "inherit",
  stderr: "inherit",
});
const { code } = await command.output();
if (code !== 0) Deno.exit(code);
console.log(`built ${outfile}`);

async function findBun(): Promise<string[]> {
  try {
    const { success } = await new Deno.Command("bun", { args: ["--version"], stdout: "null" }).output();
    if (success) return ["bun"];
  } catch {
    // not on PATH
  }
  return ["npx", "-y", "bun"];
}
