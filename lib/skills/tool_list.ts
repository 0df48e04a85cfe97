/**
 * `allowed-tools` as Claude Code writes it: a YAML list, or one string whose entries are separated
 * by commas or spaces, where a permission rule keeps its own spaces inside parentheses
 * (`Bash(git add:*), Bash(git status:*)`, `Read Grep`). Pure.
 *
 * Hand-written on purpose: this is Claude Code's own list grammar (separators inside parentheses
 * belong to the rule), which neither a CSV nor a shell-word library reads — shell-quote would turn
 * `Bash(git add:*)` into a subshell operator and a glob. One pass over the characters, no
 * allocation beyond the result.
 */
export function splitToolList(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((v) => typeof v === "string" || typeof v === "number" ? [String(v).trim()] : [])
      .filter((t) => t !== "");
  }
  if (typeof value !== "string") return [];
  const tools: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of value) {
    if (ch === "(") depth++;
    else if (ch === ")" && depth > 0) depth--;
    if (depth === 0 && (ch === "," || /\s/.test(ch))) {
      if (current.trim() !== "") tools.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim() !== "") tools.push(current.trim());
  return tools;
}
