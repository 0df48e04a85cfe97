import { versionLine } from "./lib/cli/version.ts";
import { quickArgs, quickPrint, quickRuntime } from "./lib/platform/quick_process.ts";

// `--version` is answered before the CLI and its dependencies load; everything else goes to lib/cli.
const args = quickArgs();
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  await quickPrint(`${versionLine(quickRuntime())}\n`);
} else {
  const [{ runCli }, { platform }] = await Promise.all([
    import("./lib/cli/mod.ts"),
    import("./lib/platform/mod.ts"),
  ]);
  platform.exit(await runCli(args, platform));
}
