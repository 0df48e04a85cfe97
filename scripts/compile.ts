/**
 * Builds dist/trellis offline with Bun (`deno compile` needs a download this network refuses).
 * Bun resolves the same bare specifiers from node_modules that deno.json maps to npm:. The build
 * itself (flags and why) is scripts/compile/bun_build.ts, which runs under Bun.
 */
import { bunCommand } from "./lib/bun_path.ts";

const outfile = Deno.args[0] ?? "dist/trellis";
const command = new Deno.Command(bunCommand(), {
  args: ["scripts/compile/bun_build.ts", outfile],
  stdout: "inherit",
  stderr: "inherit",
});
const { code } = await command.output();
if (code !== 0) Deno.exit(code);
console.log(`built ${outfile}`);
