import { parse as parseToml } from "smol-toml";
import { UsageError } from "../shared/mod.ts";

/**
 * `-c key.path=value`: the value is parsed as TOML, else taken as a string (Codex's rule), and
 * the dotted path becomes nested tables. Quoted segments keep their dots: projects."/a.b".trust_level.
 */
export function parseOverride(spec: string): Record<string, unknown> {
  const eq = spec.indexOf("=");
  if (eq <= 0) throw new UsageError(`Cannot parse -c "${spec}": expected key.path=value`, { field: spec });
  const keyPath = splitKeyPath(spec.slice(0, eq).trim());
  const rawValue = spec.slice(eq + 1).trim();
  let value: unknown = rawValue;
  if (!isBareWord(rawValue)) {
    try {
      value = (parseToml(`v = ${rawValue}`) as { v: unknown }).v;
    } catch {
      // not TOML: the string itself
    }
  }
  const root: Record<string, unknown> = {};
  let table = root;
  keyPath.forEach((key, i) => {
    if (i === keyPath.length - 1) table[key] = value;
    else {
      const next: Record<string, unknown> = {};
      table[key] = next;
      table = next;
    }
  });
  return root;
}

// A TOML value that starts with a letter starts with one of these words; a value whose leading
// letters are any other word fails to parse and is taken as a string, so it skips the parser (whose
// failure, building an error with a code excerpt, cost each `-c model=gpt-5` ~2 ms of start-up).
const TOML_WORDS = new Set(["true", "false", "inf", "nan"]);

function isBareWord(value: string): boolean {
  const letters = /^[A-Za-z]+/.exec(value)?.[0];
  return letters !== undefined && !TOML_WORDS.has(letters);
}

export function splitKeyPath(keyPath: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const ch of keyPath) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ".") {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  if (parts.some((p) => p.trim() === "")) {
    throw new UsageError(`Cannot parse config key "${keyPath}": empty segment`, { field: keyPath });
  }
  return parts.map((p) => p.trim());
}
