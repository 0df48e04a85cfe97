import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { removeKey, setKey } from "./config_edit.ts";
import { editConfigFile } from "./user_config_file.ts";

/**
 * Writes Codex's `[projects."<abs path>"] trust_level = "trusted"` into the user config (or removes
 * it, with the table it leaves empty). Only an existing directory can be trusted, under its real
 * path; untrusting also works for a project directory that is gone.
 */
export async function setProjectTrust(
  fs: FileSystem,
  userConfig: string,
  dir: string,
  trusted: boolean,
): Promise<string> {
  const abs = path.resolve(dir);
  const info = await fs.stat(abs);
  if (trusted && !info?.isDirectory) {
    throw new UsageError(`Cannot trust "${abs}": ${info ? "not a directory" : "no such directory"}`, {
      file: abs,
    });
  }
  const canonical = info ? await fs.realPath(abs) : abs;
  const key = ["projects", canonical, "trust_level"];
  await editConfigFile(
    fs,
    userConfig,
    () => [trusted ? setKey(key, "trusted") : removeKey(key, { prune: true })],
  );
  return canonical;
}
