/**
 * Writes `count` lines of 100 bytes through platform.writeStdout, in one call and in many, having
 * first touched the runtime's own stdout object (as commander and the terminal code do), unless
 * `untouched` comes before the count (the fast path: blocking writes on fd 1); then says on stderr
 * how the writes ended. platform_test.ts runs it under Bun and Deno into a pipe.
 */
import process from "node:process";
import { platform } from "../../lib/platform/mod.ts";

if (!process.argv.includes("untouched")) void process.stdout.isTTY;
const count = Number(process.argv.at(-1));
const line = (i: number) => `${String(i).padStart(8, "0")}${"x".repeat(91)}\n`;
try {
  await platform.writeStdout(Array.from({ length: count }, (_, i) => line(i)).join(""));
  for (let i = 0; i < count; i += 100) {
    await platform.writeStdout(Array.from({ length: 100 }, (_, j) => line(count + i + j)).join(""));
  }
  platform.writeStderr("written\n");
} catch (error) {
  platform.writeStderr(`failed: ${(error as { code?: string }).code ?? error}\n`);
}
