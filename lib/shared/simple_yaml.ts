/**
 * A fast path for the frontmatter almost every SKILL.md has: `key: plain text` lines and one level of
 * nested `key: plain text` under an empty key (`metadata:`). Anything else returns null and goes to
 * the real YAML parser, so the result always equals what `yaml` would produce (property-tested in
 * tests/skills/simple_yaml_test.ts).
 *
 * Measured (tests/skills/_measure_parsers.ts on the 26 SKILL.md files of anthropics/skills and
 * openai/skills, 22 of which take this path; 2-core machine, best of 5): 9.4 µs a file here against
 * 36–79 µs with `yaml.parse` (4–8×), i.e. ~10 ms instead of 40–80 ms for a 1,000-skill plugin
 * marketplace at every start — and the `yaml` module itself is not loaded at all when every file
 * takes this path (yaml_library.ts).
 */

const LINE = /^( *)([A-Za-z0-9_-]+):(?:[ ]+(.*?))?[ ]*$/;
const RESERVED = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL)$/;

export function parseSimpleYaml(yaml: string): Record<string, unknown> | null {
  const root: Record<string, unknown> = {};
  let nested: Record<string, unknown> | null = null;
  let nestedIndent = -1;
  let lastKey: string | null = null;
  for (const line of yaml.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const m = LINE.exec(line);
    if (!m) return null;
    const [, indent, key, raw] = m;
    const value = raw === undefined || raw === "" ? null : raw;
    if (value !== null && !isPlainText(value)) return null;
    if (indent.length === 0) {
      if (Object.hasOwn(root, key)) return null;
      root[key] = value;
      nested = null;
      nestedIndent = -1;
      lastKey = value === null ? key : null;
      continue;
    }
    if (nested === null) {
      if (lastKey === null || value === null) return null;
      nested = {};
      nestedIndent = indent.length;
      root[lastKey] = nested;
      lastKey = null;
    }
    if (indent.length !== nestedIndent || value === null || Object.hasOwn(nested, key)) return null;
    nested[key] = value;
  }
  return root;
}

/** A plain scalar YAML reads back as the same string: starts with a letter, no `: `, ` #`, tab or trailing `:`. */
function isPlainText(value: string): boolean {
  return /^[A-Za-z]/.test(value) && !value.includes(": ") && !value.includes(" #") && !value.includes("\t") &&
    !value.endsWith(":") && !RESERVED.test(value) && !value.includes("\r");
}
