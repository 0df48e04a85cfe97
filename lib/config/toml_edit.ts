import { parse as parseToml } from "smol-toml";
import { splitKeyPath } from "./overrides.ts";

/**
 * Format-preserving edits of a config.toml: only the lines of the edited key or table change, so
 * comments and the rest of the file stay byte-for-byte. Every edit is checked by re-parsing.
 * (A wasm TOML editor from npm cannot be embedded reliably in the Bun single binary.)
 */

export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };

export function formatKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

export function formatTablePath(tablePath: string[]): string {
  return tablePath.map(formatKey).join(".");
}

export function formatValue(value: TomlValue): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(", ")}]`;
  const entries = Object.entries(value).map(([k, v]) => `${formatKey(k)} = ${formatValue(v)}`);
  return entries.length ? `{ ${entries.join(", ")} }` : "{}";
}

interface Section {
  header: number; // line index of the [header], -1 for the root section
  end: number; // exclusive
  path: string[];
}

function sections(lines: string[]): Section[] {
  const result: Section[] = [{ header: -1, end: lines.length, path: [] }];
  lines.forEach((line, i) => {
    const m = /^\s*\[(?!\[)\s*(.+?)\s*\]\s*(#.*)?$/.exec(line) ??
      /^\s*\[\[\s*(.+?)\s*\]\]\s*(#.*)?$/.exec(line);
    if (!m) return;
    result[result.length - 1].end = i;
    let p: string[];
    try {
      p = splitKeyPath(m[1]);
    } catch {
      p = [m[1]];
    }
    result.push({ header: i, end: lines.length, path: p });
  });
  return result;
}

const samePath = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const isPrefix = (prefix: string[], p: string[]) =>
  prefix.length <= p.length && prefix.every((x, i) => x === p[i]);

function keyOfLine(line: string): string[] | null {
  const m = /^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_.\- ])+?)\s*=/.exec(line);
  if (!m) return null;
  try {
    return splitKeyPath(m[1]);
  } catch {
    return null;
  }
}

function splitLines(text: string): { lines: string[]; eol: string } {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return { lines, eol };
}

function join(lines: string[], eol: string): string {
  return lines.length ? lines.join(eol) + eol : "";
}

/** Sets `key` in table `tablePath`, replacing its line or adding it (and the table) as needed. */
export function setTomlValue(text: string, tablePath: string[], key: string, value: TomlValue): string {
  const { lines, eol } = splitLines(text);
  const assignment = `${formatKey(key)} = ${formatValue(value)}`;
  const section = sections(lines).find((s) =>
    samePath(s.path, tablePath) && (s.header >= 0 || tablePath.length === 0)
  );
  if (section) {
    let lastKeyLine = section.header;
    for (let i = section.header + 1; i < section.end; i++) {
      const k = keyOfLine(lines[i]);
      if (k && samePath(k, [key])) {
        lines[i] = assignment;
        return verified(join(lines, eol), [...tablePath, key], value);
      }
      if (lines[i].trim() !== "") lastKeyLine = i;
    }
    lines.splice(lastKeyLine + 1, 0, assignment);
    return verified(join(lines, eol), [...tablePath, key], value);
  }
  if (lines.length && lines[lines.length - 1].trim() !== "") lines.push("");
  lines.push(`[${formatTablePath(tablePath)}]`, assignment);
  return verified(join(lines, eol), [...tablePath, key], value);
}

/** Removes `key` from table `tablePath`; a table left empty is removed too. */
export function removeTomlValue(text: string, tablePath: string[], key: string): string {
  const { lines, eol } = splitLines(text);
  const section = sections(lines).find((s) => samePath(s.path, tablePath));
  if (!section) return text;
  for (let i = section.header + 1; i < section.end; i++) {
    const k = keyOfLine(lines[i]);
    if (k && samePath(k, [key])) {
      lines.splice(i, 1);
      const remaining = lines.slice(section.header + 1, section.end - 1).some((l) =>
        l.trim() && !l.trim().startsWith("#")
      );
      const out = join(lines, eol);
      return remaining || section.header < 0 ? out : removeTomlTable(out, tablePath);
    }
  }
  return text;
}

/** Removes the table `tablePath` and its sub-tables, with the blank lines that separated them. */
export function removeTomlTable(text: string, tablePath: string[]): string {
  const { lines, eol } = splitLines(text);
  const doomed = sections(lines).filter((s) => s.header >= 0 && isPrefix(tablePath, s.path));
  for (const s of doomed.reverse()) {
    let end = s.end;
    while (end > s.header + 1 && lines[end - 1].trim() === "") end--;
    lines.splice(s.header, end - s.header);
    if (
      s.header > 0 && lines[s.header - 1]?.trim() === "" &&
      (s.header >= lines.length || lines[s.header]?.trim() === "")
    ) {
      lines.splice(s.header - 1, 1);
    }
  }
  return join(lines, eol);
}

/** Replaces the whole table with `entries` (appended at the end of the file). */
export function setTomlTable(text: string, tablePath: string[], entries: Record<string, TomlValue>): string {
  let out = removeTomlTable(text, tablePath);
  const { lines, eol } = splitLines(out);
  if (lines.length && lines[lines.length - 1].trim() !== "") lines.push("");
  lines.push(`[${formatTablePath(tablePath)}]`);
  for (const [k, v] of Object.entries(entries)) lines.push(`${formatKey(k)} = ${formatValue(v)}`);
  out = join(lines, eol);
  parseToml(out);
  return out;
}

function verified(out: string, keyPath: string[], value: TomlValue): string {
  let node: unknown = parseToml(out);
  for (const k of keyPath) node = (node as Record<string, unknown>)?.[k];
  if (JSON.stringify(node) !== JSON.stringify(value)) {
    throw new Error(
      `Cannot edit config key "${
        keyPath.join(".")
      }": the file defines it in a form this editor does not rewrite`,
    );
  }
  return out;
}
