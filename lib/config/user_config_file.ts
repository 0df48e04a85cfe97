import type { FileSystem } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { parse as parseToml } from "smol-toml";

/**
 * Read-modify-write of a config file: the edit runs on the text, the result must parse, and it lands
 * by temp file + rename, so a failure never leaves a half-written config.
 */
export async function editConfigFile(
  fs: FileSystem,
  file: string,
  edit: (text: string) => string,
): Promise<string> {
  let text = "";
  try {
    text = await fs.readTextFile(file);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") throw error;
  }
  try {
    parseToml(text);
  } catch (error) {
    throw new UsageError(
      `Cannot edit "${file}": it is not valid TOML (${(error as Error).message.split("\n")[0]})`,
      {
        file,
      },
    );
  }
  let next: string;
  try {
    next = edit(text);
  } catch (error) {
    throw new UsageError(`Cannot edit "${file}": ${(error as Error).message}`, { file });
  }
  if (next !== text) await fs.writeFileAtomic(file, next);
  return next;
}
