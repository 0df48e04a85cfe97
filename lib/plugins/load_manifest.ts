import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import type { Diagnostic } from "../shared/mod.ts";
import { type ManifestParse, parseManifest } from "./manifest.ts";
import { containedRealPath } from "./manifest_path.ts";

/** Manifest locations, in the order they are tried (PL-1). */
export const MANIFEST_LOCATIONS = [".codex-plugin/plugin.json", ".claude-plugin/plugin.json"] as const;

export interface LoadedManifest extends ManifestParse {
  /** The manifest file read, relative to the plugin root; null when none exists. */
  location: string | null;
}

/** The only I/O of manifest handling: finds the first manifest in the plugin dir and parses it. */
export async function loadManifest(
  fs: FileSystem,
  dir: string,
  options: { dirName?: string } = {},
): Promise<LoadedManifest> {
  for (const location of MANIFEST_LOCATIONS) {
    const real = await containedRealPath(fs, dir, location);
    if (real === null) continue;
    const file = path.join(dir, location);
    if (real === "outside") {
      return failed(location, `${file} points outside the plugin root`, file);
    }
    let text: string;
    try {
      text = await fs.readTextFile(real);
    } catch (error) {
      return failed(location, `cannot read ${file}: ${(error as Error).message}`, file);
    }
    // An invalid primary manifest does not fall back to the alternate one (same as Codex).
    const parsed = parseManifest(text, { dirName: options.dirName ?? path.basename(dir) });
    return { ...parsed, location, diagnostics: parsed.diagnostics.map((d) => ({ ...d, file })) };
  }
  return { manifest: null, location: null, diagnostics: [] };
}

function failed(location: string, message: string, file: string): LoadedManifest {
  const diagnostic: Diagnostic = { level: "error", message, file };
  return { manifest: null, location, diagnostics: [diagnostic] };
}
