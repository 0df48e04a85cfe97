import { platform } from "../../lib/platform/mod.ts";
import { createSkillsService, skillsInputFromConfig } from "../../lib/skills/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
const home = Deno.args[0];
const root = `${home}/.claude/plugins/cache/bench-market`;
const ws = await Deno.makeTempDir();
const env: Record<string,string> = { HOME: ws, TRELLIS_HOME: `${ws}/.t` };
const loaded = await loadConfig(platform.fs, { cwd: ws, env: (n) => env[n] });
const pluginRoots = [...Deno.readDirSync(root)].map((e) => ({ path: `${root}/${e.name}/1.0.0/skills`, pluginId: `${e.name}@bench-market`, namespace: e.name }));
const input = skillsInputFromConfig(loaded, { pluginRoots });
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  await createSkillsService({ platform }).snapshot(input);
  console.log((performance.now() - t).toFixed(1));
}
