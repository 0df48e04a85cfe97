import * as path from "node:path";
import {
  type ConfigEdit,
  editConfigFile,
  isTable,
  parseDocument,
  removeKey,
  setKey,
  type TomlTable,
} from "../config/mod.ts";
import { checkServerName, type ServerEntryFlags, serverEntryFromFlags } from "../mcp/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { Workspace } from "./workspace.ts";

/**
 * `trellis mcp add|remove|enable|disable`: edits of `[mcp_servers.<name>]` in the user config
 * (scope "user", Codex's file) or in the project's `.trellis/config.toml` (scope "project"). Every
 * edit goes through editConfigFile: locked, checked, atomic; what an edit looks up (does the server
 * exist?) it looks up in the file as it is under the lock. Returns the file written.
 */
export type McpServerEdit =
  | { kind: "add"; flags: ServerEntryFlags; force?: boolean }
  | { kind: "remove" }
  | { kind: "enable" }
  | { kind: "disable" };

/** What an edit wrote, and where the server it switched is defined when that is another file. */
export interface McpServerEditResult {
  file: string;
  /** Set when the server comes from Codex's or Claude Code's files, `.mcp.json` or a plugin. */
  definedIn?: string;
  /** Set when nothing needed writing (the server is already in the state asked for). */
  unchanged?: true;
}

export async function editMcpServer(
  platform: Platform,
  name: string,
  scope: string,
  edit: McpServerEdit,
  cwd: string = platform.cwd(),
): Promise<McpServerEditResult> {
  checkServerName(name);
  const entries = edit.kind === "add" ? serverEntryFromFlags(name, edit.flags) : undefined;
  const file = configFile(platform, scope, cwd);
  // A server Trellis's file does not define may come from another agent's file (issue #21 item 9):
  // looked up only when needed, so a broken config elsewhere never blocks an edit of this one.
  let elsewhere: Promise<Elsewhere | undefined> | undefined;
  const lookElsewhere = () => elsewhere ??= definedElsewhere(platform, name, cwd, file);
  if (edit.kind !== "add" && !(await hasServer(platform, file, name))) await lookElsewhere();
  const defined = elsewhere ? await elsewhere : undefined;
  let unchanged = false;
  const { file: written } = await editConfigFile(platform.fs, file, (doc) => {
    const exists = serverIn(doc, name);
    if (edit.kind !== "add") {
      if (!exists) {
        if (!defined) throw notFound(name, file);
        if (edit.kind === "remove") throw notOurs(name, defined.source, file);
        // A bare `enabled` over the other file's server: on or off for Trellis only.
        if ((edit.kind === "enable") === defined.enabled) {
          unchanged = true;
          return [];
        }
        return [setKey(["mcp_servers", name, "enabled"], edit.kind === "enable")];
      }
      const table = (doc.mcp_servers as TomlTable)[name];
      const switchOnly = isTable(table) && Object.keys(table).every((k) => k === "enabled");
      // Enabling what only a switch turned off: the switch goes, the other file's entry stands.
      if (edit.kind === "remove" || (edit.kind === "enable" && switchOnly)) {
        return [removeKey(["mcp_servers", name])];
      }
      return [setKey(["mcp_servers", name, "enabled"], edit.kind === "enable")];
    }
    if (exists && !edit.force) {
      throw new UsageError(
        `Cannot add MCP server '${name}': it already exists in ${file} (--force replaces it)`,
        { server: name, file },
      );
    }
    const edits: ConfigEdit[] = exists ? [removeKey(["mcp_servers", name])] : [];
    for (const [key, value] of Object.entries(entries!)) {
      edits.push(setKey(["mcp_servers", name, key], value));
    }
    return edits;
  });
  return {
    file: written,
    ...(defined ? { definedIn: defined.source } : {}),
    ...(unchanged ? { unchanged: true as const } : {}),
  };
}

interface Elsewhere {
  source: string;
  enabled: boolean;
}

/** Whether `file` (as it is now, without the lock) has `[mcp_servers.<name>]`; missing file: no. */
async function hasServer(platform: Platform, file: string, name: string): Promise<boolean> {
  const text = await platform.fs.readTextFile(file).catch(() => undefined);
  if (text === undefined) return false;
  try {
    return serverIn(parseDocument(text), name);
  } catch {
    return true; // a file that does not parse: the locked edit names the problem
  }
}

/** The winning registration of `name` in the catalog a session would resolve, when not from `file`. */
async function definedElsewhere(
  platform: Platform,
  name: string,
  cwd: string,
  file: string,
): Promise<Elsewhere | undefined> {
  const ws = await Workspace.open(platform, { cwd });
  const { catalog } = await ws.mcpCatalog();
  const enabled = catalog.servers.find((r) => r.config.name === name);
  const found = enabled ?? catalog.disabled.find((r) => r.config.name === name);
  if (!found || found.source === file) return undefined;
  return { source: found.source, enabled: enabled !== undefined };
}

/** `[mcp_servers.<name>]` in any of its forms: a table, dotted keys, an inline table. */
function serverIn(doc: TomlTable, name: string): boolean {
  return isTable(doc.mcp_servers) && Object.hasOwn(doc.mcp_servers, name);
}

const notOurs = (name: string, source: string, file: string) =>
  new UsageError(
    `Cannot remove MCP server '${name}': it is defined in ${source}, which Trellis does not edit; ` +
      `\`trellis mcp disable ${name}\` switches it off for Trellis only (in ${file})`,
    { server: name, file: source },
  );

const notFound = (name: string, file: string) =>
  new UsageError(`No MCP server named '${name}' found. (${file} has no [mcp_servers.${name}])`, {
    server: name,
    file,
  });

/** The config.toml a scope names. Paths only: a broken config elsewhere must not block an edit. */
function configFile(platform: Platform, scope: string, cwd: string): string {
  const paths = Workspace.paths(platform, cwd);
  if (scope === "user") return paths.userConfig;
  if (scope === "project") return path.join(paths.projectRoot, ".trellis", "config.toml");
  throw new UsageError(`Cannot use --scope "${scope}": expected user or project`, { field: "scope" });
}
