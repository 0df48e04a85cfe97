import { parse as parseToml } from "smol-toml";
import { UsageError } from "../shared/mod.ts";
import { isTable } from "./merge.ts";

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

/**
 * The segments of a TOML dotted key (`projects."/a.b".trust_level` → projects, /a.b, trust_level),
 * read by smol-toml: the key is parsed as the key of `<key> = 0`, so quoting and escapes follow the
 * TOML spec exactly; an unquoted key TOML refuses is split at its dots, as Codex splits every key.
 * Throws a UsageError naming the key when it is neither.
 */
export function splitKeyPath(keyPath: string): string[] {
  const refuse = (why: string) =>
    new UsageError(`Cannot parse config key "${keyPath}": ${why}`, { field: keyPath });
  if (/[\r\n]/.test(keyPath)) throw refuse("a key is one line");
  let node: unknown;
  try {
    node = parseToml(`${keyPath} = 0`);
  } catch {
    // Codex splits `-c` keys at every dot: an unquoted key TOML refuses (`plugins.demo@test.enabled`,
    // `projects./srv/app.trust_level`) means what it means there.
    const parts = keyPath.split(".").map((p) => p.trim());
    if (/["']/.test(keyPath) || parts.some((p) => p === "")) {
      throw refuse(keyPath.trim() === "" ? "empty key" : "not a TOML dotted key");
    }
    return parts;
  }
  const parts: string[] = [];
  while (isTable(node)) {
    const keys = Object.keys(node);
    if (keys.length !== 1) throw refuse("not a single key");
    parts.push(keys[0]);
    node = node[keys[0]];
  }
  if (node !== 0 || parts.length === 0) throw refuse("not a single key");
  return parts;
}
