/**
 * Explicit skill mentions in user text (codex-formats.md §1.7), pure: `[$name](path)` links and
 * plain `$name` sigils, with environment-variable lookalikes ignored. Two regular expressions, not a
 * parser: this is Codex's own grammar for the sigil, which no library implements.
 */

export interface SkillMentions {
  /** Paths of linked mentions whose last component is SKILL.md, `skill://` stripped, in text order. */
  linkedPaths: string[];
  /** Plain `$name` mentions, in text order, duplicates removed. */
  names: string[];
  /** For each plain mention: the rest of its line, trimmed (a command's `$ARGUMENTS`); first one wins. */
  args: Record<string, string>;
}

const IGNORED_NAMES = new Set(
  ["PATH", "HOME", "USER", "SHELL", "PWD", "TMPDIR", "TEMP", "TMP", "LANG", "TERM", "XDG_CONFIG_HOME"],
);

const LINK = /\[\$([A-Za-z0-9_\-:]+)\]\s*\(([^()\n]*)\)/g;
const SIGIL = /(^|[^A-Za-z0-9_$])\$([A-Za-z0-9_\-:]+)/g;
const NOT_SKILLS = ["app://", "mcp://", "plugin://"];

export function parseSkillMentions(text: string): SkillMentions {
  const linkedPaths: string[] = [];
  const rest = text.replace(LINK, (_match, _name: string, rawPath: string) => {
    const target = linkTarget(rawPath);
    if (target) linkedPaths.push(target);
    return " ";
  });
  const names: string[] = [];
  const args: Record<string, string> = {};
  for (const m of rest.matchAll(SIGIL)) {
    const name = m[2].replace(/[-:]+$/, "");
    if (name && !IGNORED_NAMES.has(name.toUpperCase()) && !names.includes(name)) {
      names.push(name);
      const after = rest.slice((m.index ?? 0) + m[0].length);
      args[name] = after.slice(0, after.search(/\n|$/)).trim();
    }
  }
  return { linkedPaths, names, args };
}

function linkTarget(raw: string): string | null {
  let target = raw.trim();
  if (target === "" || NOT_SKILLS.some((p) => target.toLowerCase().startsWith(p))) return null;
  if (target.toLowerCase().startsWith("skill://")) target = target.slice("skill://".length);
  const last = target.split(/[\\/]/).at(-1) ?? "";
  return last.toLowerCase() === "skill.md" ? target : null;
}
