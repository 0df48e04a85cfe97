import * as path from "node:path";
import { digestHex, type FileSystem } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import type { TrellisPaths } from "./paths.ts";
import { errorCode } from "./read_once.ts";

/**
 * The files of a project that configure what runs outside the sandbox, relative to each directory
 * Trellis loads a project layer from (the project root down to the cwd): its own layer and hooks,
 * Claude Code's project settings (hooks, `enabledPlugins`), `.mcp.json` and Gemini CLI's project
 * settings (hooks; these two read at the root only). Instructions and skills are not here: they load
 * in every project.
 */
export const PROJECT_LAYER_NAMES: readonly string[] = [
  ".trellis/config.toml",
  ".trellis/hooks.json",
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".mcp.json",
  ".gemini/settings.json",
];

/** Layer files and folders a session reads at the project root only, as their own CLI does. */
const ROOT_ONLY: ReadonlySet<string> = new Set([".mcp.json", ".gemini/settings.json", ".github/hooks"]);

/**
 * Folders of a project whose agent files are layers too (#22): agent definitions, which run with
 * the session's tools. A file in one loads only as its hash was recorded, like the files above.
 */
export const PROJECT_LAYER_FOLDERS: readonly string[] = [
  ".codex/agents",
  ".claude/agents",
  ".trellis/agents",
  // GitHub Copilot CLI's hook files (#24 item 3), `*.json`, read at the project root.
  ".github/hooks",
];

const FOLDER_EXTENSIONS: Record<string, string> = { ".codex/agents": ".toml", ".github/hooks": ".json" };

/**
 * The `*.md` (Codex's folder: `*.toml`, Copilot's hooks: `*.json`) files directly in `dir`'s layer
 * folders (none when a folder is absent or unreadable); `atRoot` false leaves out the root-only ones.
 */
function folderLayerFiles(fs: FileSystem, dir: string, atRoot = true): string[] {
  const files: string[] = [];
  for (const folder of PROJECT_LAYER_FOLDERS) {
    if (!atRoot && ROOT_ONLY.has(folder)) continue;
    const full = path.join(dir, folder);
    let entries;
    try {
      entries = fs.sync.readDir(full);
    } catch {
      continue;
    }
    const ext = FOLDER_EXTENSIONS[folder] ?? ".md";
    for (const e of entries) {
      if (!e.isDirectory && e.name.endsWith(ext)) files.push(path.join(full, e.name));
    }
  }
  return files.sort();
}

/** What a trust record says: the directory trusted and, since #20, the hash of each layer file then. */
export interface ProjectTrustRecord {
  dir: string;
  /** Path relative to `dir` → `sha256:<hex>` of its text; absent in a record written before #20. */
  layerHashes?: Record<string, string>;
}

/** The content hash a trust record keeps for a layer file's text. */
export function layerHash(text: string): string {
  return `sha256:${digestHex("sha256", text)}`;
}

/** Every project layer file this session could load, root first (the root-only ones at the root). */
export function projectLayerCandidates(
  fs: FileSystem,
  paths: Pick<TrellisPaths, "projectDirs" | "projectRoot">,
): string[] {
  const files: string[] = [];
  for (const dir of paths.projectDirs) {
    const atRoot = dir === paths.projectRoot;
    for (const name of PROJECT_LAYER_NAMES) {
      if (!atRoot && ROOT_ONLY.has(name)) continue;
      files.push(path.join(dir, name));
    }
    files.push(...folderLayerFiles(fs, dir, atRoot));
  }
  return files;
}

/**
 * A layer file's text, or why it cannot be read. Every read goes through the regular-file check
 * (`fs.sync.readTextFile`): a FIFO, a directory or an unreadable file is one warning naming it, and
 * start-up goes on without it.
 */
export function readLayerText(
  fs: FileSystem,
  file: string,
): { text: string } | { absent: true } | { problem: string } {
  try {
    return { text: fs.sync.readTextFile(file) };
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { absent: true };
    const why = code === "EISDIR" ? "a directory, not a file" : (error as Error).message;
    return { problem: why };
  }
}

/**
 * The layer files of a trusted project that may load: those whose text hashes as the trust record
 * says. A file that appeared or changed since `trellis project trust` (or any file, when the record
 * predates content hashes) is held back with one warning naming it — a model or a pulled commit
 * cannot plant configuration the next session runs. Each file is read once, here; the loaders take
 * its text from the returned map, so what was checked is what loads.
 */
export function checkProjectLayers(
  fs: FileSystem,
  paths: Pick<TrellisPaths, "projectDirs" | "projectRoot">,
  record: ProjectTrustRecord,
  diagnostics: Diagnostic[],
): Map<string, string> {
  const approved = new Map<string, string>();
  for (const file of projectLayerCandidates(fs, paths)) {
    const read = readLayerText(fs, file);
    if ("absent" in read) continue;
    if ("problem" in read) {
      diagnostics.push(
        warning(`Cannot read project layer "${file}": ${read.problem}; it is not loaded`, { file }),
      );
      continue;
    }
    const recorded = record.layerHashes?.[path.relative(record.dir, file)];
    if (recorded === layerHash(read.text)) {
      approved.set(file, read.text);
      continue;
    }
    const why = !record.layerHashes
      ? `${record.dir} was trusted before Trellis recorded the content of its layer files`
      : recorded === undefined
      ? `it is new since you trusted ${record.dir}`
      : `it changed since you trusted ${record.dir}`;
    diagnostics.push(warning(
      `Skipped ${file}: ${why} (review it, then run \`trellis project trust\` to load it)`,
      { file },
    ));
  }
  return approved;
}

/** Directories a trust walk reads at most; layer files past it are not recorded (so never loaded). */
export const TRUST_WALK_MAX_DIRS = 20_000;
/** Never descended: dependency trees and git's own data hold no layer Trellis loads. */
const SKIPPED_DIRS = new Set([".git", "node_modules"]);

/**
 * Every layer file under `dir` at any depth (a later `trellis` in a subdirectory loads that
 * directory's layers too), with its hash, for `trellis project trust`. Symbolic links to directories
 * are not followed; a file that cannot be read is a warning and is not recorded.
 */
export function hashProjectLayers(
  fs: FileSystem,
  dir: string,
): { hashes: Record<string, string>; warnings: string[] } {
  const hashes: Record<string, string> = {};
  const warnings: string[] = [];
  const queue = [dir];
  let visited = 0;
  while (queue.length > 0) {
    if (visited++ >= TRUST_WALK_MAX_DIRS) {
      warnings.push(
        `stopped after ${TRUST_WALK_MAX_DIRS} directories: layer files further down are not recorded ` +
          "and will not load until trusted from their own directory",
      );
      break;
    }
    const current = queue.shift()!;
    let entries;
    try {
      entries = fs.sync.readDir(current);
    } catch {
      continue;
    }
    const names = new Set(entries.map((e) => e.name));
    for (const name of PROJECT_LAYER_NAMES) {
      if (!names.has(name.split("/")[0])) continue;
      const file = path.join(current, name);
      const read = readLayerText(fs, file);
      if ("text" in read) hashes[path.relative(dir, file)] = layerHash(read.text);
      else if ("problem" in read) warnings.push(`${file} is not recorded: ${read.problem}`);
    }
    if (PROJECT_LAYER_FOLDERS.some((folder) => names.has(folder.split("/")[0]))) {
      for (const file of folderLayerFiles(fs, current)) {
        const read = readLayerText(fs, file);
        if ("text" in read) hashes[path.relative(dir, file)] = layerHash(read.text);
        else if ("problem" in read) warnings.push(`${file} is not recorded: ${read.problem}`);
      }
    }
    for (const entry of entries) {
      if (entry.isDirectory && !entry.isSymlink && !SKIPPED_DIRS.has(entry.name)) {
        queue.push(path.join(current, entry.name));
      }
    }
  }
  return { hashes, warnings };
}

/** What re-trusting changes in the record: files new, changed, and gone since the last trust. */
export interface TrustChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

export function trustChanges(
  before: Record<string, string> | undefined,
  after: Record<string, string>,
): TrustChanges {
  const old = before ?? {};
  const sorted = (list: string[]) => list.sort();
  return {
    added: sorted(Object.keys(after).filter((k) => !(k in old))),
    changed: sorted(Object.keys(after).filter((k) => k in old && old[k] !== after[k])),
    removed: sorted(Object.keys(old).filter((k) => !(k in after))),
  };
}
