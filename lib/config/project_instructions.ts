import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { readProjectAgentsMd, readUserAgentsMd } from "./agents_md.ts";
import { claudeMdCandidates, readClaudeMd } from "./claude_md.ts";
import { compatEnabled } from "./compat.ts";
import { geminiContextFiles, installedGeminiExtensions } from "./gemini_extensions.ts";
import { readBoundedText } from "./instruction_file.ts";
import { truncatedWarning } from "./agents_md.ts";
import type { InstructionFile } from "./instruction_file.ts";
import type { LoadedConfig } from "./load.ts";

/** Codex's default for `project_doc_max_bytes`. */
export const DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024;

/** The instruction files of a session, in the order the model sees them, and what went wrong. */
export interface ProjectInstructions {
  files: InstructionFile[];
  /** One per problem, each naming its file; nothing else is lost because of it. */
  warnings: string[];
}

/**
 * Finds and reads the files that carry standing instructions: Codex's AGENTS.md chain (the user
 * files in $CODEX_HOME and $TRELLIS_HOME, then project root → cwd) and Claude Code's CLAUDE.md files with their
 * `@path` imports (unless `project_doc_claude_md = false`). They are instructions, not code, so they
 * are read whether or not the project is trusted; only an untrusted project's imports are kept
 * inside it. Order: user files, then directory by directory from the top, AGENTS.md before CLAUDE.md.
 */
export async function loadProjectInstructions(
  fs: FileSystem,
  loaded: Pick<LoadedConfig, "config" | "paths" | "projectTrusted">,
): Promise<ProjectInstructions> {
  const { config, paths } = loaded;
  const maxBytes = config.project_doc_max_bytes ?? DEFAULT_PROJECT_DOC_MAX_BYTES;
  const warnings: string[] = [];
  // A Codex user's own file first, then Trellis's; the same file reached twice (a symlink) is sent once.
  const userDirs = compatEnabled(config, "codex_agents_md") ? [paths.codexHome, paths.home] : [paths.home];
  const users: InstructionFile[] = [];
  for (const dir of userDirs) {
    const file = await readUserAgentsMd(fs, dir, Math.max(maxBytes, 1), warnings);
    if (file && !users.some((u) => u.realPath === file.realPath)) users.push(file);
  }
  const project = await readProjectAgentsMd(fs, paths.projectDirs, {
    fallbacks: config.project_doc_fallback_filenames ?? [],
    maxBytes,
  }, warnings);
  const agents = [...users, ...await geminiExtensionContexts(fs, loaded, maxBytes, warnings), ...project];
  if (config.project_doc_claude_md === false || maxBytes <= 0) {
    return { files: agents, warnings: unique(warnings) };
  }
  const claude = await readClaudeMd(fs, claudeMdCandidates(paths.claudeDir, paths.cwd), {
    userHome: paths.userHome,
    projectRoot: paths.projectRoot,
    projectTrusted: loaded.projectTrusted,
    maxBytes,
    seen: new Set(agents.map((f) => f.realPath)),
  }, warnings);
  // A file that fails is named once, though a CLAUDE.md may import the AGENTS.md that failed.
  return { files: ordered(agents, claude), warnings: unique(warnings) };
}

/**
 * The context files of the installed Gemini CLI extensions enabled here (`contextFileName`, else
 * `GEMINI.md`; #24 item 3), user scope, behind `[compat] gemini`: Gemini loads them into every
 * session's memory. A missing one is skipped quietly, as Gemini does; the same file twice is sent once.
 */
async function geminiExtensionContexts(
  fs: FileSystem,
  loaded: Pick<LoadedConfig, "config" | "paths">,
  maxBytes: number,
  warnings: string[],
): Promise<InstructionFile[]> {
  if (!compatEnabled(loaded.config, "gemini") || maxBytes <= 0) return [];
  const files: InstructionFile[] = [];
  // A broken manifest is the hooks' and MCP's warning to give (they read the same folder).
  const extensions = installedGeminiExtensions(fs, loaded.paths);
  for (const file of extensions.flatMap(geminiContextFiles)) {
    const read = await readBoundedText(fs, file, maxBytes);
    if (read.kind === "absent") continue;
    if (read.kind === "failed") {
      warnings.push(`Cannot read instructions file "${file}": ${read.error}; it is skipped`);
      continue;
    }
    if (files.some((f) => f.realPath === read.realPath)) continue;
    if (read.truncated) warnings.push(truncatedWarning(file, read.size, read.bytes, maxBytes));
    const text = read.text.trim();
    if (text === "") continue;
    files.push({
      path: file,
      realPath: read.realPath,
      family: "gemini",
      scope: "user",
      text,
      bytes: read.bytes,
      truncated: read.truncated,
    });
  }
  return files;
}

function unique(warnings: string[]): string[] {
  return [...new Set(warnings)];
}

/**
 * User files first; then directory by directory from the top, an AGENTS.md before the CLAUDE.md
 * files of the same directory. `claude` comes in reading order: each found file, then its imports.
 */
function ordered(agents: InstructionFile[], claude: InstructionFile[]): InstructionFile[] {
  const groups: InstructionFile[][] = [];
  for (const file of claude) {
    if (!file.importedFrom || groups.length === 0) groups.push([file]);
    else groups[groups.length - 1].push(file);
  }
  const userGroups = groups.filter((g) => g[0].scope === "user");
  const projectGroups = groups.filter((g) => g[0].scope !== "user");
  const out = [...agents.filter((f) => f.scope === "user"), ...userGroups.flat()];
  const projectAgents = agents.filter((f) => f.scope !== "user");
  // Directories along one path nest, so a shorter directory is an ancestor of a longer one.
  const depth = (f: InstructionFile) => path.dirname(f.path).replace(/\/\.claude$/, "").length;
  let next = 0;
  for (const group of projectGroups) {
    while (next < projectAgents.length && depth(projectAgents[next]) <= depth(group[0])) {
      out.push(projectAgents[next++]);
    }
    out.push(...group);
  }
  return [...out, ...projectAgents.slice(next)];
}
