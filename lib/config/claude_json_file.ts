import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import { isTable } from "./merge.ts";
import type { TrellisPaths } from "./paths.ts";
import { errorCode, readOncePerPaths } from "./read_once.ts";

/** The MCP servers of Claude Code's `~/.claude.json`, as written (the MCP reader checks each). */
export interface ClaudeJsonFile {
  file: string;
  /** Top-level `mcpServers`: Claude Code's user scope. */
  userServers: Record<string, unknown>;
  /**
   * `projects["<dir>"].mcpServers` (Claude Code's local scope) for each directory from the project
   * root down to the cwd that has an entry, root first: project scope, so loaded only when trusted.
   */
  projectServers: { project: string; servers: Record<string, unknown> }[];
}

type Read = { items: ClaudeJsonFile | null; diagnostics: Diagnostic[] };

/**
 * Reads Claude Code's state file for its MCP servers and nothing else: the file also holds
 * start counts, tips, per-project tool permissions and history, often megabytes of it, none of which
 * Trellis uses. An unreadable file, one that is not JSON, or one of the wrong shape is one warning
 * naming the file; a project entry that is null (Claude Code has written those) is passed over.
 */
function read(fs: FileSystem, paths: TrellisPaths): Read {
  const file = paths.claudeJson;
  const fail = (why: string): Read => ({
    items: null,
    diagnostics: [warning(`Cannot read "${file}": ${why}; its MCP servers are not loaded`, { file })],
  });
  let text: string;
  try {
    text = fs.sync.readTextFile(file);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { items: null, diagnostics: [] };
    return fail((error as Error).message);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return fail(`not JSON (${(error as Error).message})`);
  }
  if (!isTable(raw)) return fail(`expected a JSON object, found ${describe(raw)}`);
  const diagnostics: Diagnostic[] = [];
  const serversAt = (value: unknown, key: string): Record<string, unknown> => {
    if (value === undefined || value === null) return {};
    if (isTable(value)) return value;
    diagnostics.push(
      warning(`Cannot read ${key} in "${file}": expected an object, found ${describe(value)}`, {
        file,
        field: key,
      }),
    );
    return {};
  };
  const userServers = serversAt(raw.mcpServers, "mcpServers");
  const projectServers: ClaudeJsonFile["projectServers"] = [];
  const projects = raw.projects;
  if (projects !== undefined && !isTable(projects)) {
    diagnostics.push(
      warning(`Cannot read projects in "${file}": expected an object, found ${describe(projects)}`, {
        file,
        field: "projects",
      }),
    );
  } else if (projects) {
    for (const dir of paths.projectDirs) {
      const entry = projects[dir];
      if (entry === undefined || entry === null) continue;
      const key = `projects[${JSON.stringify(dir)}]`;
      if (!isTable(entry)) {
        diagnostics.push(
          warning(`Cannot read ${key} in "${file}": expected an object, found ${describe(entry)}`, {
            file,
            field: key,
          }),
        );
        continue;
      }
      const servers = serversAt(entry.mcpServers, `${key}.mcpServers`);
      if (Object.keys(servers).length > 0) projectServers.push({ project: dir, servers });
    }
  }
  return { items: { file, userServers, projectServers }, diagnostics };
}

function describe(value: unknown): string {
  return Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
}

/** `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`) → its MCP servers; absent → null. Read once per process. */
export const readClaudeJson: (fs: FileSystem, paths: TrellisPaths) => Read = readOncePerPaths(read);
