import { writeLoadedTree } from "../bench/user_files.ts";
import { loadConfig, readClaudeJson } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { loadPlugins } from "../../lib/plugins/mod.ts";
import { loadHooks } from "../../lib/hooks/mod.ts";
import { mcpServersFromConfig } from "../../lib/mcp/mod.ts";
import { skillsInputFor } from "../../lib/app/mod.ts";
import { createSkillsService, renderSkillsCatalog } from "../../lib/skills/mod.ts";
const home = Deno.args[0] ?? await Deno.makeTempDir();
if (!Deno.args[0]) { await Deno.mkdir(`${home}/.trellis`, {recursive: true}); await Deno.writeTextFile(`${home}/.trellis/config.toml`, await writeLoadedTree(home)); console.log(home); }
const env: Record<string,string> = { HOME: home };
const ws = await Deno.makeTempDir();
for (let round = 0; round < 3; round++) {
let t = performance.now();
const lap = (name: string) => { const n = performance.now(); console.log(name, (n - t).toFixed(1)); t = n; };
const loaded = await loadConfig(platform.fs, { cwd: ws, env: (n) => env[n] }); lap("loadConfig");
readClaudeJson(platform.fs, loaded.paths); lap("claude.json");
const plugins = await loadPlugins({ loaded, platform }); lap("loadPlugins");
const hooks = await loadHooks({ loaded, platform, pluginSources: plugins.contributions.hookSources }); lap("loadHooks " + hooks.handlers.length);
const mcp = mcpServersFromConfig(loaded, { platform, pluginServers: plugins.contributions.mcpServers }); lap("mcp " + mcp.catalog.disabled.length);
const snap = await createSkillsService({ platform }).snapshot(skillsInputFor(loaded, plugins.contributions)); lap("skills " + snap.skills.length);
const cat = renderSkillsCatalog(snap, { includeInstructions: true, contextWindow: 272000 }); lap("catalog " + (cat.text?.length ?? 0));
}
