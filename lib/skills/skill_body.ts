import type { FileSystem } from "../platform/mod.ts";
import type { ConversationItem } from "../shared/mod.ts";
import type { SkillMetadata } from "./types.ts";

/** A SKILL.md larger than this is not injected (it would not fit any context window). */
export const MAX_SKILL_BODY_BYTES = 1024 * 1024;

const decoder = new TextDecoder();

/** Reads the whole SKILL.md at injection time; a failure is data, never an exception. */
export async function readSkillBody(
  fs: FileSystem,
  file: string,
): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  try {
    const bytes = await fs.readFilePrefix(file, MAX_SKILL_BODY_BYTES + 1);
    if (bytes.length > MAX_SKILL_BODY_BYTES) {
      return { ok: false, error: `file is larger than ${MAX_SKILL_BODY_BYTES} bytes` };
    }
    return { ok: true, text: decoder.decode(bytes) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The user message that injects one selected skill (codex-formats.md §1.7): name, path and the file
 * verbatim, as Codex sends it. Nothing is escaped: a `</sub>` or `</skill>` in a code example reaches
 * the model exactly as the author wrote it.
 */
export function skillMessage(skill: SkillMetadata, contents: string): ConversationItem {
  return {
    type: "message",
    role: "user",
    content: `<skill>\n<name>${skill.name}</name>\n<path>${skill.path}</path>\n${contents}\n</skill>`,
  };
}
