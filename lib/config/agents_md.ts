import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { type InstructionFile, readBoundedText } from "./instruction_file.ts";

/** Codex's names: the override wins in a directory, then AGENTS.md, then the configured fallbacks. */
export const AGENTS_OVERRIDE = "AGENTS.override.md";
export const AGENTS_MD = "AGENTS.md";

/** The file names tried in each directory, in order (empty and repeated fallbacks dropped). */
export function agentsCandidates(fallbacks: readonly string[]): string[] {
  const names = [AGENTS_OVERRIDE, AGENTS_MD];
  for (const name of fallbacks) if (name !== "" && !names.includes(name)) names.push(name);
  return names;
}

/**
 * A user file in `home` (`$TRELLIS_HOME`, or Codex's `$CODEX_HOME`): `AGENTS.override.md`, else
 * `AGENTS.md`, the first that is not empty, trimmed, as Codex reads `~/.codex/AGENTS.md`. Read up to
 * `maxBytes`.
 */
export async function readUserAgentsMd(
  fs: FileSystem,
  home: string,
  maxBytes: number,
  warnings: string[],
): Promise<InstructionFile | null> {
  for (const name of [AGENTS_OVERRIDE, AGENTS_MD]) {
    const file = path.join(home, name);
    const read = await readBoundedText(fs, file, maxBytes);
    if (read.kind === "absent") continue;
    if (read.kind === "failed") {
      warnings.push(`Cannot read instructions file "${file}": ${read.error}; it is skipped`);
      continue;
    }
    if (read.truncated) warnings.push(truncatedWarning(file, read.size, read.bytes, maxBytes));
    const text = read.text.trim();
    if (text === "") continue;
    return { path: file, realPath: read.realPath, family: "agents", scope: "user", text, ...sizes(read) };
  }
  return null;
}

/**
 * Codex's project docs: in each directory from the project root down to the cwd, the first
 * candidate that exists (an empty one still takes the directory's place), concatenated root first
 * within `maxBytes` in total; the file that crosses the limit is cut, later ones are not read.
 */
export async function readProjectAgentsMd(
  fs: FileSystem,
  dirs: readonly string[],
  options: { fallbacks: readonly string[]; maxBytes: number },
  warnings: string[],
): Promise<InstructionFile[]> {
  if (options.maxBytes <= 0) return [];
  const names = agentsCandidates(options.fallbacks);
  const files: InstructionFile[] = [];
  let remaining = options.maxBytes;
  for (const dir of dirs) {
    if (remaining <= 0) break;
    for (const name of names) {
      const file = path.join(dir, name);
      const read = await readBoundedText(fs, file, remaining);
      if (read.kind === "absent") continue;
      if (read.kind === "failed") {
        warnings.push(`Cannot read instructions file "${file}": ${read.error}; it is skipped`);
        break;
      }
      if (read.truncated) warnings.push(truncatedWarning(file, read.size, read.bytes, options.maxBytes));
      if (read.text.trim() !== "") {
        files.push({
          path: file,
          realPath: read.realPath,
          family: "agents",
          scope: "project",
          ...textOf(read),
        });
        remaining -= read.bytes;
      }
      break;
    }
  }
  return files;
}

export function truncatedWarning(file: string, size: number, kept: number, max: number): string {
  return `Instructions file "${file}" is ${size} bytes; only its first ${kept} bytes are used ` +
    `(project_doc_max_bytes = ${max})`;
}

function sizes(read: { bytes: number; truncated: boolean }) {
  return { bytes: read.bytes, truncated: read.truncated };
}

function textOf(read: { text: string; bytes: number; truncated: boolean }) {
  return { text: read.text, bytes: read.bytes, truncated: read.truncated };
}
