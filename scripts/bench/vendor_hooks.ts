/**
 * Issue 24 item 3's share of the session-start figure: reading Gemini CLI's and Copilot CLI's hook
 * files costs nothing measurable when a user has none — one existence probe of each folder. Config
 * load plus hook discovery (`loadConfig` + `loadHooks`, the start-up work they join) with both vendors
 * on and their files absent, against the same with `[compat] gemini = false, copilot = false`, in
 * the same run, alternated.
 */
import { loadConfig } from "../../lib/config/mod.ts";
import { loadHooks } from "../../lib/hooks/mod.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const RUNS = 301;

export async function bench(): Promise<BenchRow[]> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-bench-vendor-hooks-"));
  const home = `${root}/home`;
  const ws = `${root}/ws`;
  await platform.fs.mkdir(`${home}/.trellis`);
  await platform.fs.mkdir(`${ws}/.git`);
  // A user with Trellis hooks of their own, and no Gemini or Copilot files.
  const handlers = Array.from({ length: 3 }, (_, i) => ({ type: "command", command: `echo hook-${i}` }));
  await platform.fs.writeTextFile(
    `${home}/.trellis/hooks.json`,
    JSON.stringify({ hooks: { Stop: [{ hooks: handlers }] } }),
  );
  const env: Record<string, string> = {
    HOME: home,
    TRELLIS_HOME: `${home}/.trellis`,
    TRELLIS_SYSTEM_DIR: `${root}/etc`,
  };
  const local: Platform = { ...platform, env: (n) => env[n] };
  // Both sides pass the same two `-c` overrides, so only the switch differs.
  const on = ["compat.gemini=true", "compat.copilot=true"];
  const off = ["compat.gemini=false", "compat.copilot=false"];
  const once = async (overrides: string[]) => {
    const started = performance.now();
    const loaded = await loadConfig(platform.fs, { cwd: ws, env: local.env, overrides });
    await loadHooks({ loaded, platform: local, pluginSources: [] });
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i++) await once(i % 2 ? on : off); // warm-up
  const withVendors: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Alternate which goes first so neither side always gets the warmer cache.
    if (i % 2 === 0) withVendors.push(await once(on));
    without.push(await once(off));
    if (i % 2 === 1) withVendors.push(await once(on));
  }
  await platform.fs.remove(root, { recursive: true });
  const a = median(withVendors);
  const b = median(without);
  const us = (ms: number) => Math.round(ms * 1000);
  return [
    {
      name: `config load + hook discovery, Gemini and Copilot on, their files absent (median of ${RUNS}: ${
        us(a)
      } µs)`,
      value: a * 1000,
      unit: "µs",
      target: "report",
      pass: true,
    },
    {
      name: `reference: the same with [compat] gemini = false, copilot = false (${us(b)} µs)`,
      value: b * 1000,
      unit: "µs",
      target: "reference",
      pass: true,
    },
    {
      name: `vendors on ÷ off, files absent (added ${
        us(a - b)
      } µs: one existence probe each of ~/.gemini, ~/.copilot/hooks, .github/hooks)`,
      value: Math.round((a / b) * 100) / 100,
      unit: "×",
      target: "≤ 1.1",
      pass: a / b <= 1.1,
    },
  ];
}
