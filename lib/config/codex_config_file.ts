import { parse as parseToml, TomlError } from "smol-toml";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import { codexConfigFile } from "./compat.ts";
import { isTable } from "./merge.ts";
import type { TrellisPaths } from "./paths.ts";
import { errorCode, readOncePerPaths } from "./read_once.ts";

/** What Trellis takes from a Codex user's `config.toml`: its MCP servers and hooks, as written. */
export interface CodexConfigFile {
  file: string;
  /** `[mcp_servers.<name>]` tables, each checked later by the MCP subsystem's one entry reader. */
  mcpServers: Record<string, unknown>;
  /** `[hooks]`: Codex's event arrays (its `[hooks.state]` trust records are never read). */
  hooks: Record<string, unknown> | null;
}

/**
 * Reads `$CODEX_HOME/config.toml` for the two tables Trellis takes from it. Every other key
 * (model, approval and sandbox settings, profiles, project trust, `notify`, `tui`, …) is left
 * alone on purpose: Trellis's own config decides how a session behaves, and a Codex file is not
 * validated against Trellis's schema, so a key Codex added last week never stops Trellis. A file
 * that does not parse, or a table of the wrong type, is one warning naming the file.
 */
function read(
  fs: FileSystem,
  paths: TrellisPaths,
): { items: CodexConfigFile | null; diagnostics: Diagnostic[] } {
  const file = codexConfigFile(paths);
  const fail = (why: string) => ({
    items: null,
    diagnostics: [
      warning(`Cannot read Codex config "${file}": ${why}; its MCP servers and hooks are not loaded`, {
        file,
      }),
    ],
  });
  let text: string;
  try {
    text = fs.sync.readTextFile(file); // a settings file, read at start like Trellis's own
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { items: null, diagnostics: [] };
    return fail((error as Error).message);
  }
  let raw: Record<string, unknown>;
  try {
    raw = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    return fail(
      `invalid TOML at line ${error.line}, column ${error.column} (${error.message.split("\n")[0]})`,
    );
  }
  const diagnostics: Diagnostic[] = [];
  const table = (key: string): Record<string, unknown> | null => {
    const value = raw[key];
    if (value === undefined) return null;
    if (isTable(value)) return value;
    diagnostics.push(warning(`Cannot read [${key}] in Codex config "${file}": not a table (ignored)`, {
      file,
      field: key,
    }));
    return null;
  };
  return { items: { file, mcpServers: table("mcp_servers") ?? {}, hooks: table("hooks") }, diagnostics };
}

/** `$CODEX_HOME/config.toml` → its `[mcp_servers]` and `[hooks]`; absent → null, never an error. */
export const readCodexConfig: (
  fs: FileSystem,
  paths: TrellisPaths,
) => { items: CodexConfigFile | null; diagnostics: Diagnostic[] } = readOncePerPaths(read);
