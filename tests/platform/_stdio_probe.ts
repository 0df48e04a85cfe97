/** Prints what the platform says of the standard streams, then preconnects to bad URLs; platform_test.ts runs it under Bun and Deno. */
import { platform } from "../../lib/platform/mod.ts";

platform.writeStderr("to stderr\n");
console.log(JSON.stringify({
  stdin: platform.isTerminal("stdin"),
  stdout: platform.isTerminal("stdout"),
  stderr: platform.isTerminal("stderr"),
}));

// Neither a refused port, a default port (which Bun's preconnect rejects) nor a malformed URL may throw.
for (const url of ["http://127.0.0.1:9/v1", "https://api.openai.com/v1", "not a url"]) {
  platform.preconnect(url);
}
await new Promise((r) => setTimeout(r, 50));
