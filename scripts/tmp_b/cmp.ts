import { platform } from "../../lib/platform/mod.ts";
import { createSkillsService, skillsInputFromConfig } from "../../lib/skills/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
const home = Deno.args[0];
const root = `${home}/.claude/plugins/cache/bench-market`;
const ws = await Deno.makeTempDir();
const env: Record<string,string> = { HOME: ws, TRELLIS_HOME: `${ws}/.t` };
const loaded = await loadConfig(platform.fs, { cwd: ws, env: (n) => env[n] });
const pluginRoots = [...Deno.readDirSync(root)].map((e) => ({ path: `${root}/${e.name}/1.0.0/skills`, pluginId: `${e.name}@bench-market`, namespace: e.name }));
for (const [label, extra] of [["plugin roots", { pluginRoots }], ["extra roots", { pluginRoots: [] }]] as const) {
  const input = skillsInputFromConfig(loaded, extra);
  if (label === "extra roots") input.roots.push(...pluginRoots.map((p) => ({ path: p.path, kind: "extra" as const, scope: "user" as const })));
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const snap = await createSkillsService({ platform }).snapshot(input);
    console.log(label, snap.skills.length, (performance.now() - t).toFixed(1));
  }
}
