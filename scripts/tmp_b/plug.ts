import { platform } from "../../lib/platform/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { loadPlugins } from "../../lib/plugins/mod.ts";
const home = Deno.args[0];
const ws = await Deno.makeTempDir();
const env: Record<string,string> = { HOME: home };
for (let i = 0; i < 15; i++) {
  const loaded = await loadConfig(platform.fs, { cwd: ws, env: (n) => env[n] });
  const t = performance.now();
  await loadPlugins({ loaded, platform });
  console.log((performance.now() - t).toFixed(1));
}
