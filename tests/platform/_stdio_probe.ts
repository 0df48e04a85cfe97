/** Prints what the platform says of the standard streams; platform_test.ts runs it under Bun and Deno. */
import { platform } from "../../lib/platform/mod.ts";

platform.writeStderr("to stderr\n");
console.log(JSON.stringify({
  stdin: platform.isTerminal("stdin"),
  stdout: platform.isTerminal("stdout"),
  stderr: platform.isTerminal("stderr"),
}));
