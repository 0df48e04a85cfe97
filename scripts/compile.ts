/**
 * Builds dist/trellis offline with Bun (`deno compile` needs a download this network refuses).
 * Bun resolves the same bare specifiers from node_modules that deno.json maps to npm:.
 */
const outfile = Deno.args[0] ?? "dist/trellis";
const bun = await findBun();
const command = new Deno.Command(bun[0], {
  args: [
    ...bun.slice(1),
    "build",
    "--compile",
    "--minify",
    "--bytecode",
    "--format",
    "esm",
    // Chunks are embedded and loaded on first import, so a command never pays for the code of
    // another (`--version` starts as fast as a bare Bun binary).
    "--splitting",
    // A CLI run is short and I/O-bound: tiering code up to the JIT 64x later than the default
    // saves more than the JIT would win back (exec turn -18 ms, 200-call turn -120 ms, 1,000-skill
    // listing -30 ms on the 2-core bench machine); long sessions still reach the JIT for hot code.
    "--compile-jit-policy=64",
    "main.ts",
    "--outfile",
    outfile,
  ],
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
