import * as path from "node:path";
import { digestHex, type FileSystem } from "../platform/mod.ts";
import { BUNDLED_SKILLS } from "./bundled_skill_files.ts";

const MARKER = ".bundled-version";

/** Fingerprint of the embedded skills: materialisation is skipped while the marker matches it. */
export const BUNDLED_FINGERPRINT = digestHex("sha256", JSON.stringify(BUNDLED_SKILLS));

/**
 * Writes the bundled skills under `dir` (temp file + rename per file) unless the marker says this
 * version is already there. A read-only home is a warning, not a failure.
 */
export async function materializeBundledSkills(fs: FileSystem, dir: string): Promise<string[]> {
  const marker = path.join(dir, MARKER);
  try {
    if (fs.sync.readTextFile(marker).trim() === BUNDLED_FINGERPRINT) return []; // every start: blocking
  } catch {
    // absent or unreadable: (re)write below
  }
  try {
    for (const skill of BUNDLED_SKILLS) {
      for (const [file, text] of Object.entries(skill.files)) {
        await fs.writeFileAtomic(path.join(dir, skill.dir, file), text);
      }
    }
    await fs.writeFileAtomic(marker, BUNDLED_FINGERPRINT + "\n");
    return [];
  } catch (error) {
    return [`Cannot write bundled skills to "${dir}": ${(error as Error).message}`];
  }
}

/** `[skills.bundled] enabled = false` removes what an earlier run materialised. */
export async function removeBundledSkills(fs: FileSystem, dir: string): Promise<void> {
  if (await fs.lstat(path.join(dir, MARKER))) await fs.remove(dir, { recursive: true }).catch(() => {});
}
