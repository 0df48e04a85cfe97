/**
 * Plugin benchmarks: install of a 2,000-file plugin (digest included) against `cp -r` of the same
 * tree, installing every plugin of a 250-plugin marketplace shaped like the public ones against
 * `cp -r` of each plugin, and loading 50 installed plugins (projection to skills, MCP, hooks).
 */
import { loadConfig } from "../../lib/config/mod.ts";
import { childEnv, platform, runCommand } from "../../lib/platform/mod.ts";
import { installById, loadPlugins, storeLayout } from "../../lib/plugins/mod.ts";
import { writeRealisticMarket } from "./_plugin_market.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

async function writeTree(dir: string, files: number, name: string): Promise<void> {
  await platform.fs.mkdir(`${dir}/.codex-plugin`);
  await platform.fs.writeTextFile(
    `${dir}/.codex-plugin/plugin.json`,
    JSON.stringify({ name, version: "1.0.0" }),
  );
  await platform.fs.mkdir(`${dir}/skills/s`);
  await platform.fs.writeTextFile(`${dir}/skills/s/SKILL.md`, "---\nname: s\ndescription: d\n---\n");
  await platform.fs.writeTextFile(
    `${dir}/.mcp.json`,
    JSON.stringify({ mcpServers: { [`srv_${name}`]: { command: "x" } } }),
  );
  await platform.fs.mkdir(`${dir}/hooks`);
  await platform.fs.writeTextFile(`${dir}/hooks/hooks.json`, JSON.stringify({ hooks: { Stop: [] } }));
  for (let d = 0; d * 100 < files; d++) {
    await platform.fs.mkdir(`${dir}/data/d${d}`);
    await Promise.all(
      Array.from(
        { length: Math.min(100, files - d * 100) },
        (_, i) => platform.fs.writeTextFile(`${dir}/data/d${d}/f${i}.txt`, `file ${d}/${i}\n`.repeat(64)),
      ),
    );
  }
}

function middle(times: number[]): number {
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

async function median(runs: number, once: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/**
 * Issue 14's figure: every plugin of a 250-plugin local marketplace installed one by one (the whole
 * `plugin install` path: marketplace read, fetch, manifest, staged copy with digest, publish, record,
 * config edit), each against `cp -r` of the same plugin tree; medians per plugin.
 */
async function marketplaceInstalls(root: string): Promise<BenchRow[]> {
  const market = `${root}/market250`;
  const names = await writeRealisticMarket(market, "real", 250);
  const home = `${root}/home250/.trellis`;
  await platform.fs.mkdir(home);
  await platform.fs.writeTextFile(
    `${home}/config.toml`,
    `[marketplaces.real]\nsource = "${market}"\nkind = "local"\n`,
  );
  const env: Record<string, string> = { HOME: `${root}/home250`, TRELLIS_HOME: home };
  const flushToDisk = () => runCommand(platform, { cmd: ["sync"], env: childEnv(platform.envAll()) });
  const cpTimes: number[] = [];
  const installTimes: number[] = [];
  await platform.fs.mkdir(`${root}/cp250`);
  for (const name of names) {
    await flushToDisk();
    let t = performance.now();
    await runCommand(platform, {
      cmd: ["cp", "-r", `${market}/plugins/${name}`, `${root}/cp250/${name}`],
      env: childEnv(platform.envAll()),
    });
    cpTimes.push(performance.now() - t);
    const loaded = await loadConfig(platform.fs, { cwd: root, env: (n) => env[n] });
    await flushToDisk();
    t = performance.now();
    await installById({ platform, loaded, id: `${name}@real` });
    installTimes.push(performance.now() - t);
  }
  const cp = middle(cpTimes);
  const install = middle(installTimes);
  const ratio = install / cp;
  return [
    {
      name: "plugins: install, 250-plugin marketplace (median)",
      value: round(install),
      unit: "ms",
      target: "",
      pass: true,
    },
    { name: "plugins: cp -r of each plugin (median)", value: round(cp), unit: "ms", target: "", pass: true },
    {
      name: "plugins: marketplace install / cp -r",
      value: round(ratio),
      unit: "x",
      target: "≤ 1.5",
      pass: ratio <= 1.5,
    },
  ];
}

export async function bench(): Promise<BenchRow[]> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-bench-plugins-"));
  try {
    const home = `${root}/home/.trellis`;
    const market = `${root}/market`;
    await platform.fs.mkdir(`${market}/.agents/plugins`);
    const entries = [{ name: "big", source: "./plugins/big" }];
    await writeTree(`${market}/plugins/big`, 2000, "big");
    for (let i = 0; i < 50; i++) {
      entries.push({ name: `p${i}`, source: `./plugins/p${i}` });
      await writeTree(`${market}/plugins/p${i}`, 3, `p${i}`);
    }
    await platform.fs.writeTextFile(
      `${market}/.agents/plugins/marketplace.json`,
      JSON.stringify({ name: "bench", plugins: entries }),
    );
    await platform.fs.mkdir(home);
    await platform.fs.writeTextFile(
      `${home}/config.toml`,
      `[marketplaces.bench]\nsource = "${market}"\nkind = "local"\n`,
    );
    const env: Record<string, string> = { HOME: `${root}/home`, TRELLIS_HOME: home };
    const config = () => loadConfig(platform.fs, { cwd: root, env: (n) => env[n] });

    // Alternate the two, each into a fresh directory: this disk is mounted with `discard`, so a
    // mass delete right before a measurement (of the previous round's copy) would dominate both.
    const cpTimes: number[] = [];
    const installTimes: number[] = [];
    // Each measurement starts with nothing left to write back, so neither pays for the other's.
    const flushToDisk = () => runCommand(platform, { cmd: ["sync"], env: childEnv(platform.envAll()) });
    for (let round = 0; round < 7; round++) {
      await flushToDisk();
      let t = performance.now();
      await runCommand(platform, {
        cmd: ["cp", "-r", `${market}/plugins/big`, `${root}/cp${round}`],
        env: childEnv(platform.envAll()),
      });
      cpTimes.push(performance.now() - t);
      const roundHome = `${root}/home${round}/.trellis`;
      await platform.fs.mkdir(roundHome);
      await platform.fs.copyFile(`${home}/config.toml`, `${roundHome}/config.toml`);
      const roundEnv: Record<string, string> = { HOME: `${root}/home${round}`, TRELLIS_HOME: roundHome };
      const loaded = await loadConfig(platform.fs, { cwd: root, env: (n) => roundEnv[n] });
      await flushToDisk();
      t = performance.now();
      await installById({ platform, loaded, id: "big@bench" });
      installTimes.push(performance.now() - t);
    }
    const cp = middle(cpTimes);
    const install = middle(installTimes);
    for (let i = 0; i < 50; i++) await installById({ platform, loaded: await config(), id: `p${i}@bench` });
    await installById({ platform, loaded: await config(), id: "big@bench" });
    const loaded = await config();
    const load = await median(7, async () => {
      const t = performance.now();
      const result = await loadPlugins({ loaded, platform, layout: storeLayout(home) });
      if (result.contributions.skillRoots.length !== 51) throw new Error("bench: wrong plugin count");
      return performance.now() - t;
    });
    const ratio = install / cp;
    const marketRows = await marketplaceInstalls(root);
    return [
      {
        name: "plugins: install 2,000-file plugin (digest incl.)",
        value: round(install),
        unit: "ms",
        target: "",
        pass: true,
      },
      { name: "plugins: cp -r of the same tree", value: round(cp), unit: "ms", target: "", pass: true },
      { name: "plugins: install / cp -r", value: round(ratio), unit: "x", target: "≤ 2", pass: ratio <= 2 },
      {
        name: "plugins: load 51 installed plugins",
        value: round(load),
        unit: "ms",
        target: "≤ 100",
        pass: load <= 100,
      },
      ...marketRows,
    ];
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

if (import.meta.main) console.table(await bench());
