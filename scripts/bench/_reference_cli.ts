/**
 * The CLIs the issues' figures are stated against, installed from npm once and measured on this
 * machine: the issues quote times from a faster machine (a bare Bun binary starts in 3 ms there,
 * 20+ ms here), so a ratio is only fair against the reference run here, on the same tree.
 */
import * as path from "node:path";
import { platform, runCommand } from "../../lib/platform/mod.ts";

const CODEX_VERSION = "0.171.0";

function cacheDir(): string {
  const base = platform.env("XDG_CACHE_HOME") ?? path.join(platform.homeDir(), ".cache");
  return path.join(base, "trellis-bench");
}

/**
 * Codex's native binary (not the npm launcher, which would add a Node start), or null with the
 * reason when it cannot be installed (no registry, another platform).
 */
export async function codexBinary(): Promise<{ bin: string } | { missing: string }> {
  const prefix = path.join(cacheDir(), `codex-${CODEX_VERSION}`);
  const arch = platform.os === "linux" ? "x86_64-unknown-linux-musl" : null;
  if (!arch) return { missing: `no reference codex binary for ${platform.os}` };
  const bin = path.join(prefix, "node_modules/@openai/codex-linux-x64/vendor", arch, "bin/codex");
  if (!(await platform.fs.stat(bin))) {
    await platform.fs.mkdir(prefix);
    const out = await runCommand(platform, {
      cmd: ["npm", "install", "--no-save", "--prefix", prefix, `@openai/codex@${CODEX_VERSION}`],
      // npm's whole environment: a proxy's CA (NODE_EXTRA_CA_CERTS) and npm_config_* settings.
      env: platform.envAll(),
      timeoutMs: 300_000,
    });
    if (out.code !== 0 || !(await platform.fs.stat(bin))) {
      return {
        missing: `npm install @openai/codex@${CODEX_VERSION} failed: ${out.stderr.trim().split("\n").at(-1)}`,
      };
    }
  }
  return { bin };
}
