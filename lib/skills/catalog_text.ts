/** The fixed prose of the `<skills_instructions>` block (codex-formats.md §1.6 layout). */

export const CATALOG_INTRO_ABSOLUTE =
  "A skill is a set of local instructions stored in a `SKILL.md` file. Below are the skills available " +
  "in this session, each with its name, a description and the file that holds its full instructions.";

export const CATALOG_INTRO_ALIASED =
  "A skill is a set of local instructions stored in a `SKILL.md` file. Below are the skills available " +
  "in this session, each with its name, a description and the file that holds its full instructions. " +
  "To keep the list short, file paths start with a root alias from the table below: replace the alias " +
  "with its directory to get the absolute path.";

export const CATALOG_USAGE: readonly string[] = [
  "- Trigger: if the user names a skill (`$skill-name` or in plain words), or the task clearly matches " +
  "a skill's description, use that skill for this turn. Several mentions mean use them all. Do not " +
  "carry a skill into later turns unless it is mentioned again.",
  "- Read before acting: open the skill's `SKILL.md` with the file-read tool (skill files may be read " +
  "even outside the workspace) and follow its workflow. Read only as much as the task needs.",
  "- Progressive disclosure: when `SKILL.md` points to `references/`, `scripts/` or `assets/`, open only " +
  "the files the task needs; prefer running or adapting a provided script to retyping its code.",
  "- Missing or unreadable: if a named skill is not listed or its file cannot be read, say so briefly " +
  "and continue with the best fallback.",
  "- Context hygiene: do not paste whole skill files into your answer; summarize what you used.",
];
