import { type Diagnostic, UsageError, warning, type z } from "../shared/mod.ts";
import { parseConfigTable, type TrellisConfig } from "./schema/mod.ts";
import { formatKeyPath, isTable } from "./merge.ts";
import { splitKeyPath } from "./overrides.ts";

/**
 * Validates one layer's table. Unknown keys are warnings (and dropped); anything else is a UsageError
 * naming the file, line and key path. Sections whose schema rejects unknown keys with a custom issue
 * (mcp_servers) stay errors.
 */
export function validateLayer(
  raw: Record<string, unknown>,
  where: { file: string; text?: string },
): { value: TrellisConfig; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let table = raw;
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = parseConfigTable(table);
    if (result.success) return { value: result.data, diagnostics };
    const unknown = result.issues.filter((i) => i.code === "unrecognized_keys");
    const other = result.issues.filter((i) => i.code !== "unrecognized_keys");
    if (other.length > 0) throw layerError(other, where);
    table = structuredClone(table);
    for (const issue of unknown) {
      for (const key of (issue as { keys: string[] }).keys) {
        const keyPath = formatKeyPath([...issue.path.map(pathSegment), key]);
        diagnostics.push(warning(`Unknown config key "${keyPath}" in ${where.file} (ignored)`, {
          file: where.file,
          field: keyPath,
        }));
        deleteAt(table, [...issue.path.map(pathSegment), key]);
      }
    }
  }
  throw new UsageError(`Cannot validate config "${where.file}"`, { file: where.file });
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

/** Best effort: the 1-based line where `keyPath` (or its longest prefix) is assigned. */
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
