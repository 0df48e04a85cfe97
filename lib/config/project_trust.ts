import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { removeTomlValue, setTomlValue } from "./toml_edit.ts";
import { editConfigFile } from "./user_config_file.ts";

/** Writes Codex's `[projects."<abs path>"] trust_level` into the user config. */
export async function setProjectTrust(
  fs: FileSystem,
  userConfig: string,
  dir: string,
  trusted: boolean,
): Promise<string> {
  const abs = path.resolve(dir);
  const canonical = await fs.realPath(abs).catch(() => abs);
  await editConfigFile(
    fs,
    userConfig,
    (text) =>
      trusted
        ? setTomlValue(text, ["projects", canonical], "trust_level", "trusted")
        : removeTomlValue(text, ["projects", canonical], "trust_level"),
  );
  return canonical;
}
