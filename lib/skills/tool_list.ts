/**
 * `allowed-tools` as Claude Code writes it: a YAML list, or one string whose entries are separated
 * by commas or spaces, where a permission rule keeps its own spaces inside parentheses
 * (`Bash(git add:*), Bash(git status:*)`, `Read Grep`). Pure.
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
