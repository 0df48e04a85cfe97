import { closestWord, type Diagnostic, UsageError, warning, type z } from "../shared/mod.ts";
import { knownKeysAt, parseConfigTable, type TrellisConfig } from "./schema/mod.ts";
import { formatKeyPath, isTable } from "./merge.ts";
import { splitKeyPath } from "./overrides.ts";
import { isCodexUnusedKey } from "./codex_unused_keys.ts";

/** A `[mcp_servers.<name>]` table the schema rejected: that server is left out and reported failed. */
export interface InvalidMcpServer {
  name: string;
  file: string;
  line?: number;
  /** Key path of the first problem, e.g. `mcp_servers.docs.url`. */
  field: string;
  /** One line: the key path and what is wrong with it. */
  reason: string;
}

/**
 * Validates one layer's table. Unknown keys are warnings (and dropped); a bad `[mcp_servers.X]`
 * entry is a warning naming file, server and field, and that server is left out (returned in
 * `invalidMcpServers`, so the MCP catalog can show it failed) — one broken server never stops
 * every command. Anything else is a UsageError naming the file, line and key path.
 */
export function validateLayer(
  raw: Record<string, unknown>,
  where: { file: string; text?: string },
): { value: TrellisConfig; diagnostics: Diagnostic[]; invalidMcpServers: InvalidMcpServer[] } {
  const diagnostics: Diagnostic[] = [];
  const invalidMcpServers: InvalidMcpServer[] = [];
  // A copied Codex config: its settings Trellis knows but does not use are one line, not one each.
  const codexKeys: string[] = [];
  const summarize = () => {
    if (codexKeys.length === 0) return;
    diagnostics.push(warning(
      `${where.file} has Codex settings Trellis does not use (ignored): ${codexKeys.join(", ")}`,
      { file: where.file },
    ));
    codexKeys.length = 0;
  };
  let table = raw;
  for (let attempt = 0; attempt < 4; attempt++) {
    const result = parseConfigTable(table);
    if (result.success) {
      summarize();
      return { value: result.data, diagnostics, invalidMcpServers };
    }
    const unknown = result.issues.filter((i) => i.code === "unrecognized_keys");
    const servers = result.issues.filter((i) => i.code !== "unrecognized_keys" && isServerIssue(i));
    const other = result.issues.filter((i) => i.code !== "unrecognized_keys" && !isServerIssue(i));
    if (other.length > 0) throw layerError(other, where);
    table = structuredClone(table);
    for (const issue of unknown) {
      for (const key of (issue as { keys: string[] }).keys) {
        const segments = [...issue.path.map(pathSegment), key];
        const keyPath = formatKeyPath(segments);
        deleteAt(table, segments);
        if (isCodexUnusedKey(segments)) {
          codexKeys.push(keyPath);
          continue;
        }
        // Its line, and the key it most likely meant (#21 item 11): a mistyped `approval_polcy`
        // silently left the default in force.
        const line = where.text ? findKeyLine(where.text, segments.map(String)) : undefined;
        const meant = closestWord(key, knownKeysAt(segments.slice(0, -1)));
        const hint = meant ? `; did you mean ${formatKeyPath([...segments.slice(0, -1), meant])}?` : "";
        diagnostics.push(
          warning(
            `Unknown config key "${keyPath}" in ${
              line ? `${where.file}:${line}` : where.file
            } (ignored)${hint}`,
            {
              file: where.file,
              field: keyPath,
              ...(line ? { line } : {}),
            },
          ),
        );
      }
    }
    for (const issue of servers) {
      const name = String(issue.path[1]);
      if (invalidMcpServers.some((s) => s.name === name)) continue;
      const invalid = invalidServer(issue, name, where);
      invalidMcpServers.push(invalid);
      diagnostics.push(
        warning(
          `Invalid config ${
            invalid.line ? `${where.file}:${invalid.line}` : where.file
          }: ${invalid.reason} (MCP server "${name}" is not started)`,
          { file: where.file, field: invalid.field, subject: name },
        ),
      );
      deleteAt(table, ["mcp_servers", name]);
    }
  }
  throw new UsageError(`Cannot validate config "${where.file}"`, { file: where.file });
}

/** An issue about one `[mcp_servers.<name>]` entry (its fields, its transport, its name). */
function isServerIssue(issue: z.core.$ZodIssue): boolean {
  return issue.path[0] === "mcp_servers" && issue.path.length >= 2;
}

function invalidServer(issue: z.core.$ZodIssue, name: string, where: { file: string; text?: string }) {
  const keyPath = issue.path.map(pathSegment);
  const field = formatKeyPath(keyPath);
  const line = where.text ? findKeyLine(where.text, keyPath.map(String)) : undefined;
  return { name, file: where.file, line, field, reason: `${field}: ${issue.message}` };
}

function pathSegment(p: PropertyKey): string | number {
  return typeof p === "number" ? p : String(p);
}

function deleteAt(table: Record<string, unknown>, keyPath: (string | number)[]): void {
  let node: unknown = table;
  for (const key of keyPath.slice(0, -1)) node = (node as Record<string, unknown>)?.[key as string];
  if (isTable(node) || Array.isArray(node)) {
    delete (node as Record<string, unknown>)[keyPath.at(-1) as string];
  }
}

function layerError(issues: z.core.$ZodIssue[], where: { file: string; text?: string }): UsageError {
  const first = issues[0];
  const keyPath = first.path.map(pathSegment);
  const key = formatKeyPath(keyPath);
  const line = where.text ? findKeyLine(where.text, keyPath.map(String)) : undefined;
  const at = line ? `${where.file}:${line}` : where.file;
  const more = issues.length > 1
    ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})`
    : "";
  return new UsageError(
    `Invalid config ${at}: ${key || "(top level)"}: ${first.message}${more}`,
    { file: where.file, line, field: key },
    "config_invalid",
  );
}

/**
 * Best effort: the 1-based line where `keyPath` (or its longest prefix) is assigned. A line scan, not
 * a TOML parser: smol-toml and toml-edit-js return values without source positions, so the line of
 * a key an error names is found here; keys themselves are read by splitKeyPath (smol-toml). Runs only
 * when a layer has a problem to report.
 */
export function findKeyLine(text: string, keyPath: string[]): number | undefined {
  let table: string[] = [];
  let best: { line: number; depth: number } | undefined;
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const line = rawLine.trim();
    const header = /^\[\[?\s*(.+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = safeSplit(header[1]);
      consider(table, index + 1);
      return;
    }
    const assign = /^((?:"[^"]*"|'[^']*'|[A-Za-z0-9_.\- ])+?)\s*=/.exec(line);
    if (assign) consider([...table, ...safeSplit(assign[1])], index + 1);
  });
  return best?.line;

  function consider(candidate: string[], line: number) {
    let depth = 0;
    while (depth < candidate.length && depth < keyPath.length && candidate[depth] === keyPath[depth]) depth++;
    if (depth === candidate.length && depth > 0 && (!best || depth > best.depth)) best = { line, depth };
  }
}

function safeSplit(keyPath: string): string[] {
  try {
    return splitKeyPath(keyPath);
  } catch {
    return [keyPath];
  }
}
