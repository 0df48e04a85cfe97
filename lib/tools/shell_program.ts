import * as nodePath from "node:path";
import type { Platform } from "../platform/mod.ts";

let cached: Promise<string[]> | undefined;

/** `bash -lc` as Codex runs commands, or `sh -c` where bash is missing (minimal containers). */
export function shellProgram(platform: Platform): Promise<string[]> {
  cached ??= findBash(platform).then((bash) => bash ? [bash, "-lc"] : ["sh", "-c"]);
  return cached;
}

/**
 * The first executable `bash` on PATH. A PATH entry this user cannot search (root's
 * `/root/.cargo/bin` in a PATH handed to another user) or read holds no usable bash: it is skipped,
 * never the shell tool's failure (#20 item 16).
 */
async function findBash(platform: Platform): Promise<string | undefined> {
  for (const dir of (platform.env("PATH") ?? "").split(":")) {
    if (!dir) continue;
    const candidate = nodePath.join(dir, "bash");
    const info = await platform.fs.stat(candidate).catch(() => null); // EACCES, ELOOP: not here
    if (info?.isFile && (info.mode & 0o111) !== 0) return candidate;
  }
  return undefined;
}
