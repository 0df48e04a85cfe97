import { loadConfig, type LoadedConfig } from "../../lib/config/mod.ts";
import { childEnv, platform, runCommand } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

export const FIXTURE_MARKET = new URL("../../fixtures/plugins/market", import.meta.url).pathname;
/** Claude Code shapes: no plugin.json, strict:false entries, lspServers, Claude and Codex .mcp.json. */
export const CLAUDE_MARKET = new URL("../../fixtures/plugins/claude-market", import.meta.url).pathname;

export interface PluginSandbox {
  root: string;
  env: Record<string, string>;
  market: string;
  cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  config(): Promise<LoadedConfig>;
}

export async function sh(cmd: string[], cwd?: string): Promise<string> {
  const result = await runCommand(platform, { cmd, cwd, env: childEnv(platform.envAll()) });
  if (result.code !== 0) throw new Error(`${cmd.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

/** A sandbox HOME with a writable copy of the fixture marketplace, already added. */
export async function pluginSandbox(
  options: { addMarket?: boolean; fixture?: string } = {},
): Promise<PluginSandbox> {
  const { root, env } = await makeSandboxHome();
  const market = `${root}/market`;
  await sh(["cp", "-a", options.fixture ?? FIXTURE_MARKET, market]);
  const cli = (...argv: string[]) => runCliCaptured(argv, { env, cwd: root });
  const config = () => loadConfig(platform.fs, { cwd: root, env: (name) => env[name] });
  if (options.addMarket !== false) {
    const added = await cli("plugin", "marketplace", "add", market);
    if (added.code !== 0) throw new Error(added.stderr);
  }
  return { root, env, market, cli, config };
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await platform.fs.writeFileAtomic(file, JSON.stringify(value, null, 2));
}
