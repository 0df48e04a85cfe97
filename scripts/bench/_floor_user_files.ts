/**
 * Runs under Bun (user_files.ts starts it): the file-system calls a start over the loaded tree cannot
 * skip while a changed, added or removed SKILL.md or folder must be seen at once — a listing of every
 * skill root and skill folder, a stat of every SKILL.md, the plugins' manifest, hooks and .mcp.json —
 * and nothing else. Prints the milliseconds they took, in this process.
 *
 * usage: bun scripts/bench/_floor_user_files.ts CACHE_DIR
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import process from "node:process";

const cache = process.argv[2];
const started = performance.now();
for (const market of readdirSync(cache)) {
  for (const plugin of readdirSync(`${cache}/${market}`)) {
    for (const version of readdirSync(`${cache}/${market}/${plugin}`)) {
      const root = `${cache}/${market}/${plugin}/${version}`;
      for (const file of [".claude-plugin/plugin.json", "hooks/hooks.json", ".mcp.json"]) {
        try {
          readFileSync(`${root}/${file}`);
        } catch {
          // a plugin without hooks or servers
        }
      }
      const skills = `${root}/skills`;
      for (const entry of readdirSync(skills, { withFileTypes: true })) {
        readdirSync(`${skills}/${entry.name}`, { withFileTypes: true });
        lstatSync(`${skills}/${entry.name}/SKILL.md`);
      }
    }
  }
}
console.log((performance.now() - started).toFixed(2));
