import * as nodePath from "node:path";
import type { Platform } from "../platform/mod.ts";

let cached: Promise<string[]> | undefined;

/** `bash -lc` as Codex runs commands, or `sh -c` where bash is missing (minimal containers). */
export function shellProgram(platform: Platform): Promise<string[]> {
  cached ??= findBash(platform).then((bash) => bash ? [bash, "-lc"] : ["sh", "-c"]);
  return cached;
}

async function findBash(platform: Platform): Promise<string | undefined> {
  for (const dir of (platform.env("PATH") ?? "").split(":")) {
    if (!dir) continue;
    const candidate = nodePath.join(dir, "bash");
    if ((await platform.fs.stat(candidate))?.isFile) return candidate;
  }
  return undefined;
}
