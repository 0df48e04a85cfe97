/**
 * Starts a sandboxed command in `ws` with its cwd in `ws/sub` (so bwrap needs placeholders for the
 * missing protected names in both), prints `ready` once they exist, and waits to be killed
 * (sandbox_placeholders_test.ts SIGKILLs it, as a crash or the OOM killer would).
 */
import { detectSandbox, platform, runCommand, sandboxArgv } from "../../lib/platform/mod.ts";

const [ws, home] = Deno.args;
const status = await detectSandbox(platform);
if (!status.available) throw new Error(status.reason);
const policy = {
  mode: "workspace-write" as const,
  writableRoots: [ws],
  networkAccess: false,
  cwd: `${ws}/sub`,
  trellisHome: home,
};
const argv = sandboxArgv(["/bin/sh", "-c", "echo ready; exec sleep 60"], policy, status);
const running = runCommand(platform, { cmd: argv, env: { PATH: "/usr/bin:/bin" }, timeoutMs: 60_000 });
while (!(await platform.fs.lstat(`${ws}/sub/.git`))) await new Promise((r) => setTimeout(r, 20));
console.log("ready");
await running;
