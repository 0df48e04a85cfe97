/**
 * The bundled system skills, embedded as strings so they ship inside the single binary. They are
 * written to `$TRELLIS_HOME/skills/.system` (scope System) on first use.
 */

export interface BundledSkill {
  /** Directory name under `.system`. */
  dir: string;
  files: Record<string, string>;
}

const SKILL_CREATOR = `---
name: skill-creator
description: Create or update a skill (a SKILL.md folder with optional scripts, references and assets) that extends the agent with reusable instructions. Use when the user asks to make, write, package or improve a skill.
metadata:
  short-description: Create or update a skill
---

# Skill creator

A skill is a folder whose \`SKILL.md\` teaches the agent a task it cannot do well from general
knowledge: a company workflow, a file format, a tool's quirks. The agent always sees every skill's
name and description; it reads the body only when it decides to use the skill. Write for that.

## Where skills live

- Project (shared with the repository): \`<repo>/.agents/skills/<skill-name>/SKILL.md\`
- Personal (every project): \`~/.agents/skills/<skill-name>/SKILL.md\`
- Claude Code locations are read too: \`.claude/skills/\` and \`~/.claude/skills/\`.

Ask which one the user wants when it is not obvious; default to the project.

## Steps

1. **Collect two or three concrete examples** of requests the skill must handle. Ask the user if
   the request is vague. Each example tells you what the agent would otherwise get wrong.
2. **Plan the contents.** For each example decide what belongs in:
   - \`SKILL.md\`: the workflow and decisions, short and imperative (under ~300 lines).
   - \`scripts/\`: code the agent would otherwise rewrite every time (deterministic steps).
   - \`references/\`: long documentation the agent loads only when needed (schemas, API notes).
   - \`assets/\`: templates and files copied into the output, never read into context.
3. **Create the folder** \`<root>/<skill-name>/\` with a lowercase, hyphenated name (max 64 chars).
4. **Write the frontmatter** exactly like this:

   \`\`\`markdown
   ---
   name: skill-name
   description: What it does and when to use it, in one or two sentences (max 1024 chars).
   ---
   \`\`\`

   The description is the only thing the agent sees before choosing the skill: name the trigger
   situations and key words a user would say. Quote a value that contains \`: \` or starts with \`[\`.
5. **Write the body**: the goal, the step-by-step workflow, where each script or reference fits and
   when to read it, and how to check the result. Prefer examples to explanations. Do not repeat what
   a capable model already knows.
6. **Optional \`agents/openai.yaml\`** for display and policy:

   \`\`\`yaml
   interface:
     display_name: Skill Name
     short_description: One line for UIs
   policy:
     allow_implicit_invocation: true   # false: only used when the user names it ($skill-name)
   dependencies:
     tools:
       - type: mcp
         value: server-name          # an MCP server the skill needs
         description: Why it is needed
   \`\`\`

7. **Test it**: run every script once; then start a new turn that mentions \`$skill-name\` and check
   the agent follows the workflow. Run \`trellis skills doctor\` to see load errors and whether the
   skill fits in the catalog budget.

## Updating a skill

Read the whole folder first. Keep the name stable (users mention it); tighten the description when
the skill triggers too often or too rarely; move long sections into \`references/\`.
`;

export const BUNDLED_SKILLS: readonly BundledSkill[] = [
  { dir: "skill-creator", files: { "SKILL.md": SKILL_CREATOR } },
];
