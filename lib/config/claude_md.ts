import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { findImports } from "./claude_imports.ts";
import { type InstructionFile, readBoundedText } from "./instruction_file.ts";
import { truncatedWarning } from "./agents_md.ts";

/** Claude Code follows imports at most five hops from the file it found. */
export const MAX_IMPORT_DEPTH = 5;

/** Claude Code's memory files in one directory, in its order, with their scope. */
const PER_DIRECTORY: [string, InstructionFile["scope"]][] = [
  ["CLAUDE.md", "project"],
  [path.join(".claude", "CLAUDE.md"), "project"],
  ["CLAUDE.local.md", "local"],
];

/** A CLAUDE.md found by discovery, before its imports are followed. */
export interface ClaudeMdCandidate {
  path: string;
  scope: InstructionFile["scope"];
}

/**
 * Where Claude Code looks: `~/.claude/CLAUDE.md` (in `$CLAUDE_CONFIG_DIR` when set), then every
 * directory from the topmost ancestor of the cwd (below `/`) down to the cwd — `CLAUDE.md`,
 * `.claude/CLAUDE.md`, `CLAUDE.local.md`.
 */
export function claudeMdCandidates(claudeDir: string, cwd: string): ClaudeMdCandidate[] {
  const dirs: string[] = [];
  for (let dir = path.resolve(cwd); path.dirname(dir) !== dir; dir = path.dirname(dir)) dirs.unshift(dir);
  return [
    { path: path.join(claudeDir, "CLAUDE.md"), scope: "user" },
    ...dirs.flatMap((dir) => PER_DIRECTORY.map(([name, scope]) => ({ path: path.join(dir, name), scope }))),
  ];
}

export interface ClaudeMdOptions {
  userHome: string;
  /** Imports from project files may reach outside `projectRoot` only in a trusted project. */
  projectRoot: string;
  projectTrusted: boolean;
  /** Shared by every CLAUDE.md and import read (project_doc_max_bytes). */
  maxBytes: number;
  /** Real paths already included (AGENTS.md files): a CLAUDE.md symlinked to one is not repeated. */
  seen: Set<string>;
}

/**
 * Reads the candidates that exist and, after each, the files it imports (depth first, each file
 * once). Every problem is one warning naming the file: an unreadable file, an import cycle, an
 * import too deep, an import outside the project of an untrusted project, the size limit.
 */
export async function readClaudeMd(
  fs: FileSystem,
  candidates: readonly ClaudeMdCandidate[],
  options: ClaudeMdOptions,
  warnings: string[],
): Promise<InstructionFile[]> {
  const files: InstructionFile[] = [];
  const state = { remaining: options.maxBytes, exhausted: false };
  const visit = async (
    file: string,
    scope: InstructionFile["scope"],
    chain: { path: string; real: string }[],
  ): Promise<void> => {
    if (state.remaining <= 0) {
      state.exhausted = true;
      return;
    }
    const read = await readBoundedText(fs, file, state.remaining);
    if (read.kind === "absent") return;
    if (read.kind === "failed") {
      warnings.push(`Cannot read instructions file "${file}": ${read.error}; it is skipped`);
      return;
    }
    const cycle = chain.findIndex((c) => c.real === read.realPath);
    if (cycle >= 0) {
      const loop = [...chain.slice(cycle).map((c) => c.path), file].join(" -> ");
      warnings.push(`CLAUDE.md import cycle ${loop}: "${file}" is not imported again`);
      return;
    }
    if (options.seen.has(read.realPath)) return;
    options.seen.add(read.realPath);
    if (read.truncated) warnings.push(truncatedWarning(file, read.size, read.bytes, options.maxBytes));
    state.remaining -= read.bytes;
    if (read.text.trim() !== "") {
      const importedFrom = chain.at(-1)?.path;
      files.push({
        path: file,
        realPath: read.realPath,
        family: "claude",
        scope,
        ...(importedFrom ? { importedFrom } : {}),
        text: read.text,
        bytes: read.bytes,
        truncated: read.truncated,
      });
    }
    const here = [...chain, { path: file, real: read.realPath }];
    for (const spec of await findImports(read.text)) {
      const target = resolveImport(spec, path.dirname(file), options.userHome);
      // `@name` in prose is often no import at all: a path that is not a file is passed over quietly.
      const real = await realFile(fs, target);
      if (!real) continue;
      // Already sent (an AGENTS.md, or imported elsewhere) and not a cycle: nothing to add, nothing to say.
      if (options.seen.has(real) && !here.some((c) => c.real === real)) continue;
      if (here.length > MAX_IMPORT_DEPTH) {
        warnings.push(
          `CLAUDE.md import "@${spec}" in "${file}" is not followed: imports go at most ${MAX_IMPORT_DEPTH} levels deep`,
        );
        continue;
      }
      if (scope !== "user" && !options.projectTrusted && !insideAny(real, [await projectReal()])) {
        warnings.push(
          `CLAUDE.md import "@${spec}" in "${file}" is not followed: "${real}" is outside the project ` +
            "(run `trellis project trust` to allow imports outside it)",
        );
        continue;
      }
      await visit(target, scope, here);
    }
  };
  // An untrusted project's files may import only what lies in the project, compared by real path so
  // a symlink cannot lead outside. That holds for a CLAUDE.md found above the project too (`~/CLAUDE.md`,
  // `/tmp/CLAUDE.md`): whoever could write it could otherwise send the model anything below it (#20).
  let projectReal: () => Promise<string> = async () => {
    const real = await realOr(fs, options.projectRoot);
    projectReal = () => Promise.resolve(real);
    return real;
  };
  for (const candidate of candidates) {
    await visit(candidate.path, candidate.scope, []);
  }
  if (state.exhausted) {
    warnings.push(
      `CLAUDE.md files and their imports reached project_doc_max_bytes (${options.maxBytes}); the rest are not read`,
    );
  }
  return files;
}

/** `~/x` from the home directory, an absolute path as is, anything else from the importing file's folder. */
export function resolveImport(spec: string, fromDir: string, userHome: string): string {
  if (spec === "~" || spec.startsWith("~/")) return path.join(userHome, spec.slice(1));
  return path.resolve(fromDir, spec);
}

async function realFile(fs: FileSystem, file: string): Promise<string | null> {
  try {
    const info = await fs.stat(file);
    return info?.isFile ? await fs.realPath(file) : null;
  } catch {
    return null;
  }
}

async function realOr(fs: FileSystem, dir: string): Promise<string> {
  try {
    return await fs.realPath(dir);
  } catch {
    return dir;
  }
}

function insideAny(file: string, dirs: string[]): boolean {
  return dirs.some((dir) => file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep));
}
