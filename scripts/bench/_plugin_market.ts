/**
 * A generated local marketplace shaped like the public ones (anthropics/claude-code,
 * anthropics/claude-plugins-official, openai/plugins; 246 local plugins measured): half the plugins
 * are 3–5 files of ~30 KB (a Codex manifest, `.app.json`, one skill, an icon), a quarter are Claude
 * Code plugins of 10–30 files (commands, agents, hooks, skills with references, `.mcp.json`), one in
 * ten is large (60–150 files, ~400 KB, like the p90 of the real ones), some have no plugin.json, and
 * a few are LSP-only strict:false entries (README and LICENSE).
 */
import { platform } from "../../lib/platform/mod.ts";

const fs = platform.fs;

/** Deterministic filler: `n` bytes of text that does not compress to nothing. */
function text(seed: number, n: number): string {
  let out = "";
  let x = seed * 2654435761 % 4294967296;
  while (out.length < n) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += `${x.toString(36)} `;
    if (out.length % 80 < 8) out += "\n";
  }
  return out.slice(0, n);
}

async function write(file: string, data: string): Promise<void> {
  await fs.mkdir(file.slice(0, file.lastIndexOf("/")));
  await fs.writeTextFile(file, data);
}

const skill = (name: string, seed: number, size: number) =>
  `---\nname: ${name}\ndescription: ${text(seed, 120).replace(/\n/g, " ")}\n---\n\n${text(seed + 1, size)}`;

async function codexPlugin(dir: string, name: string, i: number, extraFiles: number): Promise<void> {
  await write(
    `${dir}/.codex-plugin/plugin.json`,
    JSON.stringify({
      name,
      version: "1.0.0",
      description: text(i, 80),
      skills: "./skills/",
      apps: "./.app.json",
      interface: { displayName: name, composerIcon: "./assets/icon.png" },
    }),
  );
  await write(`${dir}/.app.json`, JSON.stringify({ apps: { [name]: { id: `connector_${i}` } } }));
  await write(`${dir}/skills/${name}/SKILL.md`, skill(name, i, 4000));
  await write(`${dir}/assets/icon.png`, text(i + 7, 20_000));
  for (let f = 0; f < extraFiles; f++) {
    await write(`${dir}/skills/${name}/references/ref${f}.md`, text(i * 100 + f, 2500));
  }
}

async function claudePlugin(dir: string, name: string, i: number, files: number, manifest: boolean) {
  if (manifest) {
    await write(`${dir}/.claude-plugin/plugin.json`, JSON.stringify({ name, description: text(i, 60) }));
  }
  await write(`${dir}/README.md`, text(i, 3000));
  await write(
    `${dir}/hooks/hooks.json`,
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "true" }] }] } }),
  );
  await write(
    `${dir}/.mcp.json`,
    JSON.stringify({ [`srv-${i}`]: { type: "http", url: "https://x.invalid/mcp" } }),
  );
  for (let f = 0; f < files; f++) {
    const kind = ["commands", "agents", "skills"][f % 3];
    const file = kind === "skills" ? `skills/s${f}/SKILL.md` : `${kind}/c${f}.md`;
    await write(`${dir}/${file}`, kind === "skills" ? skill(`s${f}`, i + f, 3000) : text(i + f, 1800));
  }
}

/** Writes `count` plugins and the marketplace listing them; returns their names. */
export async function writeRealisticMarket(root: string, name: string, count: number): Promise<string[]> {
  const entries: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const plugin = `p${String(i).padStart(3, "0")}`;
    const dir = `${root}/plugins/${plugin}`;
    const shape = i % 20;
    const entry: Record<string, unknown> = { name: plugin, source: `./plugins/${plugin}` };
    if (shape < 10) await codexPlugin(dir, plugin, i, shape % 3);
    else if (shape < 15) await claudePlugin(dir, plugin, i, 8 + (i % 20), shape !== 14);
    else if (shape < 17) await codexPlugin(dir, plugin, i, 60 + (i % 90));
    else if (shape < 19) await claudePlugin(dir, plugin, i, 40 + (i % 60), true);
    else {
      await write(`${dir}/README.md`, text(i, 600));
      await write(`${dir}/LICENSE`, text(i + 1, 1000));
      Object.assign(entry, {
        version: "1.0.0",
        strict: false,
        lspServers: { [`lsp${i}`]: { command: "lsp", extensionToLanguage: { ".x": "x" } } },
      });
    }
    entries.push(entry);
  }
  await write(
    `${root}/.claude-plugin/marketplace.json`,
    JSON.stringify({ name, owner: { name: "bench" }, plugins: entries }),
  );
  return entries.map((e) => e.name as string);
}
