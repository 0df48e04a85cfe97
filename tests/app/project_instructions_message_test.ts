import assert from "node:assert/strict";
import { projectInstructionsMessage } from "../../lib/app/project_instructions_message.ts";
import type { InstructionFile } from "../../lib/config/mod.ts";

function file(
  path: string,
  family: InstructionFile["family"],
  scope: InstructionFile["scope"],
  text: string,
) {
  return { path, realPath: path, family, scope, text, bytes: text.length, truncated: false };
}

Deno.test("projectInstructionsMessage() wraps AGENTS.md exactly as Codex sends it: user file, project-doc separator, project files", () => {
  const message = projectInstructionsMessage({
    files: [
      file("/h/.trellis/AGENTS.md", "agents", "user", "Be brief."),
      file("/r/AGENTS.md", "agents", "project", "Root rules.\n"),
      file("/r/sub/AGENTS.md", "agents", "project", "Sub rules.\n"),
    ],
    warnings: [],
  }, "/r/sub");
  assert.deepStrictEqual(message, {
    type: "message",
    role: "user",
    content: "# AGENTS.md instructions for /r/sub\n\n<INSTRUCTIONS>\nBe brief.\n\n--- project-doc ---\n\n" +
      "Root rules.\n\n\nSub rules.\n\n</INSTRUCTIONS>",
  });
});

Deno.test("projectInstructionsMessage() labels CLAUDE.md files with Claude Code's headings, inside the same wrapper", () => {
  const message = projectInstructionsMessage({
    files: [
      file("/h/.claude/CLAUDE.md", "claude", "user", "Mine."),
      file("/r/CLAUDE.md", "claude", "project", "Team."),
      file("/r/CLAUDE.local.md", "claude", "local", "Local."),
    ],
    warnings: [],
  }, "/r");
  assert.equal(
    message?.type === "message" ? message.content : null,
    "# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\n" +
      "Contents of /h/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nMine." +
      "\n\n--- project-doc ---\n\n" +
      "Contents of /r/CLAUDE.md (project instructions, checked into the codebase):\n\nTeam.\n\n" +
      "Contents of /r/CLAUDE.local.md (user's private project instructions, not checked in):\n\nLocal.\n</INSTRUCTIONS>",
  );
  assert.equal(projectInstructionsMessage({ files: [], warnings: ["x"] }, "/r"), null);
});
