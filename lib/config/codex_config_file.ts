import { parse as parseToml, TomlError } from "smol-toml";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import { codexConfigFile } from "./compat.ts";
import { isTable } from "./merge.ts";
import type { TrellisPaths } from "./paths.ts";
import { errorCode, type ReadOnce, readOncePerPaths } from "./read_once.ts";

/**
 * The keys of a Codex `config.toml` that choose a model and cannot loosen anything: Trellis reads
 * them in place as a layer beneath its own user config (issue #21 item 8). `model_verbosity` is one
 * of Codex's too, but Trellis has no such setting (it is in CODEX_UNUSED_KEYS).
 */
export const CODEX_MODEL_KEYS = [
  "model",
  "model_reasoning_effort",
  "model_context_window",
  "model_provider",
  "model_providers",
] as const;

/**
 * Codex keys Trellis deliberately does not take from Codex's file, because they would loosen what a
 * session may do: `config show` and `import codex` name the ones a file sets, in one line.
 */
export const CODEX_NOT_TAKEN_KEYS = [
  "approval_policy",
  "sandbox_mode",
  "sandbox_workspace_write",
  "projects",
] as const;

/** What Trellis takes from a Codex user's `config.toml`: its MCP servers and hooks, as written. */
export interface CodexConfigFile {
  file: string;
  /** The CODEX_MODEL_KEYS the file sets, as written (validated when the layer is built). */
  modelKeys: Record<string, unknown>;
  /** The CODEX_NOT_TAKEN_KEYS the file sets. */
  notTaken: string[];
  /** `[mcp_servers.<name>]` tables, each checked later by the MCP subsystem's one entry reader. */
  mcpServers: Record<string, unknown>;
  /** `[hooks]`: Codex's event arrays (its `[hooks.state]` trust records are never read). */
  hooks: Record<string, unknown> | null;
}

/**
 * Reads `$CODEX_HOME/config.toml` for what Trellis takes from it: the two tables and the model keys.
 * Every other key (approval and sandbox settings, profiles, project trust, `notify`, `tui`, …) is
 * left alone on purpose: Trellis's own config decides how a session behaves, and a Codex file is not
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
      warning(
        `Cannot read Codex config "${file}": ${why}; its MCP servers, hooks and model keys are not loaded`,
        {
          file,
        },
      ),
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
  const modelKeys = Object.fromEntries(
    CODEX_MODEL_KEYS.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]),
  );
  const notTaken = CODEX_NOT_TAKEN_KEYS.filter((k) => raw[k] !== undefined);
  return {
    items: { file, modelKeys, notTaken, mcpServers: table("mcp_servers") ?? {}, hooks: table("hooks") },
    diagnostics,
  };
}

/** `$CODEX_HOME/config.toml` → its `[mcp_servers]` and `[hooks]`; absent → null, never an error. */
export const readCodexConfig: ReadOnce<{ items: CodexConfigFile | null; diagnostics: Diagnostic[] }> =
  readOncePerPaths(read);

/**
 * The line `config show` and `import codex` print for the keys of Codex's file Trellis does not take
 * (they would loosen a session); null when the file sets none of them.
 */
export function codexNotTakenLine(fs: FileSystem, paths: TrellisPaths): string | null {
  const items = readCodexConfig.peek(fs, paths).items;
  if (!items || items.notTaken.length === 0) return null;
  return `not taken from ${items.file} (Trellis's own config decides these): ${items.notTaken.join(", ")}`;
}
