import { runCli } from "../../lib/cli/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
const home = Deno.args[0];
const ws = await Deno.makeTempDir();
const env: Record<string,string> = { HOME: home, PATH: Deno.env.get("PATH")! };
const p = { ...platform, env: (n: string) => env[n], envAll: () => env, cwd: () => ws, writeStdout: () => Promise.resolve(), writeStderr: () => {} };
for (let i = 0; i < 8; i++) {
  const t = performance.now();
  await runCli(["debug", "prompt", "hi"], p as any);
  console.log((performance.now() - t).toFixed(1));
}
