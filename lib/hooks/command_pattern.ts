import { UNKNOWN } from "./command_wrappers.ts";

/** A compiled Bash rule specifier: literal runs with a wildcard between consecutive runs. */
type Glob = readonly string[];

/**
 * Claude Code's Bash specifier forms: `cmd:*` is `cmd` alone or `cmd` then a space and anything (a
 * prefix ending at a word boundary, `cmd` read literally); any other `*` matches anything, spaces
 * included (`git *` needs the space, `ls*` does not); otherwise the command must be exactly the
 * specifier, runs of whitespace read as one space. Not picomatch: `?`, `[ab]` and `{a,b}` are
 * literal, as Claude Code reads them.
 */
export function compileCommandRule(specifier: string): Glob[] {
  if (specifier.endsWith(":*")) {
    const prefix = specifier.slice(0, -2).trim();
    return [[prefix], [`${prefix} `, ""]];
  }
  if (specifier.includes("*")) return [specifier.split("*")];
  return [[specifier.replace(/\s+/g, " ")]];
}

/**
 * Whether `command` (words joined by one space, `UNKNOWN` where text is known only at run time)
 * matches `glob`. "certain": it does whatever the unknown text turns out to be (only the rule's own
 * wildcards cover it); "possible": some value of the unknown text would make it match.
 */
export function globMatches(glob: Glob, command: string, mode: "certain" | "possible"): boolean {
  // Most commands differ from the rule in their first letters: settle those without the table.
  const head = glob[0];
  for (let j = 0; j < head.length && command[j] !== UNKNOWN; j++) {
    if (command[j] !== head[j]) return false;
  }
  const rule = tokens(glob);
  const n = command.length;
  // next[j]: rule[i + 1 …] matches command[j …]; a two-row table, O(rule × command).
  let next = new Array<boolean>(n + 1);
  next[n] = true;
  for (let j = n - 1; j >= 0; j--) next[j] = mode === "possible" && command[j] === UNKNOWN && next[j + 1];
  for (let i = rule.length - 1; i >= 0; i--) {
    const token = rule[i];
    const row = new Array<boolean>(n + 1);
    row[n] = token === null && next[n];
    for (let j = n - 1; j >= 0; j--) {
      const c = command[j];
      if (token === null) row[j] = next[j] || row[j + 1];
      else if (c === UNKNOWN) row[j] = mode === "possible" && (next[j] || row[j + 1]);
      else row[j] = c === token && next[j + 1];
    }
    next = row;
  }
  return next[0];
}

/** The rule as single characters, `null` for a wildcard. */
function tokens(glob: Glob): (string | null)[] {
  const out: (string | null)[] = [];
  glob.forEach((run, index) => {
    if (index > 0) out.push(null);
    out.push(...run.split("")); // UTF-16 units, as the command is indexed
  });
  return out;
}
