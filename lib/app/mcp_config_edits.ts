import * as path from "node:path";
import {
  type ConfigEdit,
  editConfigFile,
  isTable,
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

export async function editMcpServer(
  platform: Platform,
  name: string,
  scope: string,
  edit: McpServerEdit,
  cwd: string = platform.cwd(),
): Promise<string> {
  checkServerName(name);
  const entries = edit.kind === "add" ? serverEntryFromFlags(name, edit.flags) : undefined;
  const file = configFile(platform, scope, cwd);
  const { file: written } = await editConfigFile(platform.fs, file, (doc) => {
    const exists = serverIn(doc, name);
    if (edit.kind !== "add") {
      if (!exists) throw notFound(name, file);
      if (edit.kind === "remove") return [removeKey(["mcp_servers", name])];
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
  return written;
}

/** `[mcp_servers.<name>]` in any of its forms: a table, dotted keys, an inline table. */
function serverIn(doc: TomlTable, name: string): boolean {
  return isTable(doc.mcp_servers) && Object.hasOwn(doc.mcp_servers, name);
}

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
