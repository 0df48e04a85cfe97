import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, parseJsonText, warning } from "../shared/mod.ts";
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
 * What Trellis keeps of the file: the server maps and the shape problems, nothing else. Small, so it
 * is also what the start-up cache holds.
 */
interface Extract {
  userServers: Record<string, unknown>;
  /** Problems of the whole file or a top-level key, each one line. */
  problems: { field?: string; message: string }[];
  /** Only projects whose `mcpServers` is set, or whose entry (or map) has the wrong shape. */
  projects: Record<string, { servers: Record<string, unknown> } | { problem: string }>;
}

/** Files this size or larger are worth the cache (a fresh Claude Code install writes a few KiB). */
const CACHE_FROM_BYTES = 256 * 1024;
/** A file changed this recently may still be changing: it is read, not cached. */
const SETTLED_MS = 2000;

/**
 * Reads Claude Code's state file for its MCP servers and nothing else: the file also holds
 * start counts, tips, per-project tool permissions and history — often megabytes, none of which
 * Trellis uses. An unreadable file, one that is not JSON, or one of the wrong shape is one warning
 * naming the file; a project entry that is null (Claude Code has written those) is passed over.
 *
 * Start-up cost: reading, decoding and parsing a 3.4 MiB file costs the compiled binary 40–60 ms of
 * CPU (measured by scripts/bench/user_files.ts; its whole empty-home session start is ~70 ms), and a
 * partial scan that skips the parts Trellis does not use measured no faster than the native parse.
 * So what Trellis keeps of a large file is cached in `$TRELLIS_HOME/cache/claude_json.json`, keyed
 * by the file's path, size and modification time, and the file is parsed again only when it changed.
 */
function read(fs: FileSystem, paths: TrellisPaths): Read {
  const file = paths.claudeJson;
  let info;
  try {
    info = fs.sync.lstat(file);
  } catch {
    info = null;
  }
  const cacheFile = path.join(paths.home, "cache", "claude_json.json");
  const key = info?.isFile && info.size >= CACHE_FROM_BYTES ? `${file}\0${info.size}\0${info.mtimeMs}` : null;
  const cached = key ? readCache(fs, cacheFile, key) : null;
  if (cached) return fromExtract(cached, file, paths);
  let text: string;
  try {
    text = fs.sync.readTextFile(file);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { items: null, diagnostics: [] };
    return failed(file, (error as Error).message);
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) return failed(file, `not JSON (${parsed.message})`);
  const raw = parsed.value;
  if (!isTable(raw)) return failed(file, `expected a JSON object, found ${describe(raw)}`);
  const extract = extractServers(raw);
  if (key && Date.now() - info!.mtimeMs > SETTLED_MS) writeCache(fs, cacheFile, key, extract);
  return fromExtract(extract, file, paths);
}

function failed(file: string, why: string): Read {
  return {
    items: null,
    diagnostics: [warning(`Cannot read "${file}": ${why}; its MCP servers are not loaded`, { file })],
  };
}

function extractServers(raw: Record<string, unknown>): Extract {
  const problems: Extract["problems"] = [];
  const servers = (value: unknown, key: string): Record<string, unknown> | string => {
    if (value === undefined || value === null) return {};
    return isTable(value)
      ? value
      : `Cannot read ${key} in "{file}": expected an object, found ${describe(value)}`;
  };
  const user = servers(raw.mcpServers, "mcpServers");
  if (typeof user === "string") problems.push({ field: "mcpServers", message: user });
  const projects: Extract["projects"] = {};
  if (raw.projects !== undefined && !isTable(raw.projects)) {
    problems.push({
      field: "projects",
      message: `Cannot read projects in "{file}": expected an object, found ${describe(raw.projects)}`,
    });
  } else if (raw.projects) {
    for (const [dir, entry] of Object.entries(raw.projects)) {
      if (entry === null || entry === undefined) continue;
      const key = `projects[${JSON.stringify(dir)}]`;
      if (!isTable(entry)) {
        projects[dir] = {
          problem: `Cannot read ${key} in "{file}": expected an object, found ${describe(entry)}`,
        };
        continue;
      }
      if (entry.mcpServers === undefined || entry.mcpServers === null) continue;
      const map = servers(entry.mcpServers, `${key}.mcpServers`);
      projects[dir] = typeof map === "string" ? { problem: map } : { servers: map };
    }
  }
  return { userServers: typeof user === "string" ? {} : user, problems, projects };
}

/** This session's view: the user servers, and the entries of the dirs from the project root to the cwd. */
function fromExtract(extract: Extract, file: string, paths: TrellisPaths): Read {
  const diagnostics: Diagnostic[] = extract.problems.map((p) =>
    warning(p.message.replace("{file}", file), { file, ...(p.field ? { field: p.field } : {}) })
  );
  const projectServers: ClaudeJsonFile["projectServers"] = [];
  for (const dir of paths.projectDirs) {
    const entry = Object.hasOwn(extract.projects, dir) ? extract.projects[dir] : undefined;
    if (!entry) continue;
    if ("problem" in entry) {
      diagnostics.push(
        warning(entry.problem.replace("{file}", file), { file, field: `projects[${JSON.stringify(dir)}]` }),
      );
    } else if (Object.keys(entry.servers).length > 0) {
      projectServers.push({ project: dir, servers: entry.servers });
    }
  }
  return { items: { file, userServers: extract.userServers, projectServers }, diagnostics };
}

function readCache(fs: FileSystem, cacheFile: string, key: string): Extract | null {
  try {
    const cached = JSON.parse(fs.sync.readTextFile(cacheFile));
    return cached?.schema === 1 && cached.key === key && isTable(cached.extract)
      ? cached.extract as Extract
      : null;
  } catch {
    return null; // absent, torn by a concurrent write, or another version's: parse the file instead
  }
}

/**
 * Best effort and blocking (the readers are synchronous): a failed write only means the next start
 * parses the file again. Two processes writing at once write the same bytes for the same key.
 */
function writeCache(fs: FileSystem, cacheFile: string, key: string, extract: Extract): void {
  try {
    fs.sync.mkdir(path.dirname(cacheFile));
    fs.sync.writeFile(cacheFile, new TextEncoder().encode(JSON.stringify({ schema: 1, key, extract })), {
      mode: 0o600,
    });
  } catch {
    // the cache is an optimisation only
  }
}

function describe(value: unknown): string {
  return Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
}

/** `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`) → its MCP servers; absent → null. Read once per process. */
export const readClaudeJson: (fs: FileSystem, paths: TrellisPaths) => Read = readOncePerPaths(read);
