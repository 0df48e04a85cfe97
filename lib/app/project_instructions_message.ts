import type { InstructionFile, ProjectInstructions } from "../config/mod.ts";
import type { ConversationItem } from "../shared/mod.ts";

/** Codex's marker: the message starts with this, then the cwd (codex-rs `user_instructions.rs`). */
export const INSTRUCTIONS_HEADING = "# AGENTS.md instructions for ";

/** Codex puts this between the user's own file and the project's (codex-rs `agents_md.rs`). */
const PROJECT_DOC_SEPARATOR = "\n\n--- project-doc ---\n\n";

/** Claude Code's label for each kind of CLAUDE.md, kept so the model knows whose words they are. */
const CLAUDE_LABELS: Record<InstructionFile["scope"], string> = {
  project: "project instructions, checked into the codebase",
  local: "user's private project instructions, not checked in",
  user: "user's private global instructions for all projects",
};

/**
 * The user-role message carrying the instruction files, wrapped as Codex sends AGENTS.md:
 * `# AGENTS.md instructions for <cwd>\n\n<INSTRUCTIONS>\n…\n</INSTRUCTIONS>`. AGENTS.md text goes in
 * as Codex joins it (user file, `--- project-doc ---`, project files joined by blank lines); a
 * CLAUDE.md file (or import) goes in under Claude Code's own heading, `Contents of <path> (<kind>):`.
 * Null when there is nothing to say.
 */
export function projectInstructionsMessage(
  instructions: ProjectInstructions,
  cwd: string,
): ConversationItem | null {
  if (instructions.files.length === 0) return null;
  let text = "";
  let previous: InstructionFile | null = null;
  for (const file of instructions.files) {
    if (previous) {
      text += previous.scope === "user" && file.scope !== "user" ? PROJECT_DOC_SEPARATOR : "\n\n";
    }
    text += file.family === "agents" ? file.text : file.family === "gemini"
      // Gemini CLI's own framing of a context file in its memory.
      ? `--- Context from: ${file.path} ---\n${file.text}\n--- End of Context from: ${file.path} ---`
      : `Contents of ${file.path} (${CLAUDE_LABELS[file.scope]}):\n\n${file.text}`;
    previous = file;
  }
  return {
    type: "message",
    role: "user",
    content: `${INSTRUCTIONS_HEADING}${cwd}\n\n<INSTRUCTIONS>\n${text}\n</INSTRUCTIONS>`,
  };
}
