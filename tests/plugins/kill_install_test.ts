import assert from "node:assert/strict";
import { childEnv, platform, runCommand } from "../../lib/platform/mod.ts";
import {
  activeVersion,
  digestTree,
  parsePluginId,
  recoverStore,
  storeLayout,
} from "../../lib/plugins/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { sh, writeJson } from "./_helpers.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const SLOTS = 10;
const RUNS_PER_SLOT = 5;
const FILES = 400;

async function makeVariant(dir: string, version: string | undefined, tag: string): Promise<void> {
  await platform.fs.mkdir(`${dir}/.codex-plugin`);
  await writeJson(`${dir}/.codex-plugin/plugin.json`, { name: "big", ...(version ? { version } : {}) });
  for (let d = 0; d < FILES / 50; d++) {
    await platform.fs.mkdir(`${dir}/files/d${d}`);
    await Promise.all(
      Array.from(
        { length: 50 },
        (_, i) => platform.fs.writeTextFile(`${dir}/files/d${d}/f${i}.txt`, `${tag} ${d}/${i} `.repeat(40)),
      ),
    );
  }
  if (tag === "b") await platform.fs.writeTextFile(`${dir}/only-in-b.txt`, "b");
}

async function pointMarketAt(market: string, variant: "a" | "b"): Promise<void> {
  await writeJson(`${market}/.agents/plugins/marketplace.json`, {
    name: "test",
    plugins: [{ name: "big", source: `./plugins/big-${variant}` }],
  });
}

Deno.test("plugin install killed (SIGKILL) at random moments leaves the old or the new version, complete (PL-8)", async () => {
  const template = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-kill-"));
  const id = parsePluginId("big@test")!;
  const digests = new Map<string, string>(); // digest → variant label
  for (
    const [label, version, tag] of [["local-a", undefined, "a"], ["local-b", undefined, "b"], [
      "v1",
      "1.0.0",
      "a",
    ], ["v2", "2.0.0", "b"]] as const
  ) {
    await makeVariant(`${template}/${label}`, version, tag);
    digests.set((await digestTree(platform.fs, `${template}/${label}`)).digest, `${label}`);
  }

  const slots = await Promise.all(Array.from({ length: SLOTS }, async (_, slot) => {
    const { root, env } = await makeSandboxHome();
    const versioned = slot % 2 === 1;
    const market = `${root}/market`;
    await platform.fs.mkdir(`${market}/plugins`);
    await sh(["cp", "-a", `${template}/${versioned ? "v1" : "local-a"}`, `${market}/plugins/big-a`]);
    await sh(["cp", "-a", `${template}/${versioned ? "v2" : "local-b"}`, `${market}/plugins/big-b`]);
    await pointMarketAt(market, "a");
    await platform.fs.writeTextFile(
      `${env.TRELLIS_HOME}/config.toml`,
      `[marketplaces.test]\nsource = "${market}"\nkind = "local"\n`,
    );
    return { root, env, market, layout: storeLayout(env.TRELLIS_HOME), versioned };
  }));

  const runOnce = async (slotIndex: number, run: number) => {
    const s = slots[slotIndex];
    const target = run % 2 === 0 ? "a" : "b";
    await pointMarketAt(s.market, target);
    const child = platform.spawn({
      cmd: [platform.execPath(), "run", "-A", "--no-lock", MAIN, "plugin", "install", "big@test"],
      cwd: s.root,
      env: childEnv(platform.envAll(), { set: s.env }),
    });
    void child.stdout.cancel();
    void child.stderr.cancel();
    // Kill somewhere inside the install: once staging has begun, after a random delay.
    const started = Date.now();
    while (Date.now() - started < 8000) {
      const staging = await platform.fs.stat(s.layout.stagingDir)
        ? await platform.fs.readDir(s.layout.stagingDir)
        : [];
      if (staging.length > 0) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, Math.random() * 400));
    child.kill("SIGKILL");
    const status = await child.status;
    await assertComplete(s, status.code === 0 ? target : null);
  };

  const assertComplete = async (s: (typeof slots)[number], finished: "a" | "b" | null) => {
    for (const phase of ["reader", "recovered"]) {
      if (phase === "recovered") await recoverStore(platform.fs, s.layout);
      const active = await activeVersion(platform.fs, s.layout, id);
      assert.ok(active, `${phase}: some version is always installed`);
      const label = digests.get((await digestTree(platform.fs, active.root)).digest);
      assert.ok(label, `${phase}: ${active.root} is neither the old nor the new version, complete`);
      if (s.versioned) {
        assert.equal(label, active.version === "1.0.0" ? "v1" : "v2", `${phase}: version matches content`);
      }
      if (finished) {
        assert.ok(label.endsWith(finished === "a" ? (s.versioned ? "1" : "a") : (s.versioned ? "2" : "b")));
      }
    }
  };

  // The first install of each slot completes, so every later run replaces an existing version.
  await Promise.all(slots.map(async (s) => {
    const done = await runCommand(platform, {
      cmd: [platform.execPath(), "run", "-A", "--no-lock", MAIN, "plugin", "install", "big@test"],
      cwd: s.root,
      env: childEnv(platform.envAll(), { set: s.env }),
    });
    assert.equal(done.code, 0, done.stderr);
    await assertComplete(s, "a");
  }));
  for (let run = 1; run <= RUNS_PER_SLOT; run++) {
    await Promise.all(slots.map((_, i) => runOnce(i, run)));
  }
  await platform.fs.remove(template, { recursive: true });
  await Promise.all(slots.map((s) => platform.fs.remove(s.root, { recursive: true })));
});
