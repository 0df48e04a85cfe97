import { runCli } from "./lib/cli/mod.ts";
import { platform } from "./lib/platform/mod.ts";

// The CLI entry: hand argv to lib/cli and exit with its code.
const code = await runCli(platform.args(), platform);
platform.exit(code);
