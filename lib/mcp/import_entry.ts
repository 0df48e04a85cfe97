import { isTable, mcpServerFieldNames, parseConfigTable } from "../config/mod.ts";
import { codexTable } from "./mcp_json.ts";
import { isValidServerName, SSE_NOT_IN_CONFIG_TOML, transportType } from "./transport_rules.ts";

/** One server entry made ready for Trellis's `[mcp_servers.<name>]`, or the reason it cannot be. */
export type ImportedEntry =
  | { ok: true; table: Record<string, unknown>; notes: string[] }
  | { ok: false; reason: string };

const WHOLE_VAR = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const BEARER_VAR = /^Bearer \$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const ANY_VAR = /\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}/;

/**
 * A Codex `[mcp_servers.<name>]` table as Trellis's own: the same keys (Trellis reads Codex's), keys
 * Trellis does not know dropped with a note, then checked by the config schema, so an import never
 * writes an entry Trellis would refuse.
 */
export function importCodexEntry(name: string, entry: unknown): ImportedEntry {
  if (!isTable(entry)) return { ok: false, reason: "not a table" };
  const known = mcpServerFieldNames();
  const table: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (known.has(key) && key !== "name") table[key] = value;
    else dropped.push(key);
  }
  return checked(
    name,
    table,
    dropped.length ? [`not copied (Trellis does not use them): ${dropped.join(", ")}`] : [],
  );
}

/**
 * A Claude Code `mcpServers` entry as a Codex-style table, keys mapped as the one `.mcp.json` reader
 * maps them. Claude Code expands `${VAR}` in its files; config.toml does not, so a variable is
 * carried over only where Codex's config has a place for a variable's *name* — `Authorization:
 * Bearer ${T}` → `bearer_token_env_var = "T"`, a header that is just `${T}` → `env_http_headers`, an
 * env entry `X = "${X}"` → `env_vars = ["X"]` — and the value itself is never written. Any other
 * `${…}`, and SSE (config.toml has no SSE transport), keep the entry out of the import.
 */
export function importClaudeEntry(name: string, entry: unknown): ImportedEntry {
  if (!isTable(entry)) return { ok: false, reason: "not an object" };
  const type = entry.type === undefined ? "stdio" : transportType(entry.type);
  if (type === "sse") return { ok: false, reason: `an SSE server: ${SSE_NOT_IN_CONFIG_TOML}` };
  if (type === undefined) return { ok: false, reason: `unknown type ${JSON.stringify(entry.type)}` };
  const { table, ignoredKeys, notes } = codexTable(entry);
  const variables = moveVariables(table);
  if (!variables.ok) return variables;
  const all = [...notes];
  if (ignoredKeys.length) all.push(`not copied (Trellis does not use them): ${ignoredKeys.join(", ")}`);
  return checked(name, table, all);
}

function moveVariables(table: Record<string, unknown>): ImportedEntry {
  const headers = isTable(table.http_headers) ? { ...table.http_headers } : undefined;
  for (const [header, value] of Object.entries(headers ?? {})) {
    if (typeof value !== "string" || !ANY_VAR.test(value)) continue;
    const bearer = BEARER_VAR.exec(value);
    const whole = WHOLE_VAR.exec(value);
    if (bearer && header.toLowerCase() === "authorization" && table.bearer_token_env_var === undefined) {
      table.bearer_token_env_var = bearer[1];
    } else if (whole) {
      table.env_http_headers = {
        ...(isTable(table.env_http_headers) ? table.env_http_headers : {}),
        [header]: whole[1],
      };
    } else return unexpanded(`headers.${header}`);
    delete headers![header];
  }
  if (headers) {
    if (Object.keys(headers).length) table.http_headers = headers;
    else delete table.http_headers;
  }
  const env = isTable(table.env) ? { ...table.env } : undefined;
  for (const [key, value] of Object.entries(env ?? {})) {
    if (typeof value !== "string" || !ANY_VAR.test(value)) continue;
    if (WHOLE_VAR.exec(value)?.[1] !== key) return unexpanded(`env.${key}`);
    const vars = Array.isArray(table.env_vars) ? table.env_vars : [];
    table.env_vars = [...vars, key];
    delete env![key];
  }
  if (env) {
    if (Object.keys(env).length) table.env = env;
    else delete table.env;
  }
  for (const key of ["command", "url", "cwd"]) {
    if (typeof table[key] === "string" && ANY_VAR.test(table[key] as string)) return unexpanded(key);
  }
  const args = Array.isArray(table.args) ? table.args : [];
  const at = args.findIndex((a) => typeof a === "string" && ANY_VAR.test(a));
  if (at >= 0) return unexpanded(`args[${at}]`);
  return { ok: true, table, notes: [] };
}

function unexpanded(field: string): ImportedEntry {
  return {
    ok: false,
    reason:
      `${field} uses a \${VAR} that Trellis's config.toml cannot express (it does not expand variables)`,
  };
}

function checked(name: string, table: Record<string, unknown>, notes: string[]): ImportedEntry {
  if (!isValidServerName(name)) {
    return { ok: false, reason: "invalid server name (expected [A-Za-z0-9_-]+)" };
  }
  const parsed = parseConfigTable({ mcp_servers: { [name]: table } });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = issue.path.slice(2).join(".");
    return { ok: false, reason: `${field ? `${field}: ` : ""}${issue.message}` };
  }
  return { ok: true, table, notes };
}
