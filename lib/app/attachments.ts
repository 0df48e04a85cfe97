import type { ConversationItem } from "../shared/mod.ts";

/** A file the person attached to a prompt with `@path` (read by the UI, which reports problems). */
export interface Attachment {
  /** As the person wrote it (relative to the cwd, or absolute). */
  path: string;
  content: string;
  /** The file was longer than the UI reads; `content` is its beginning. */
  truncated?: boolean;
}

/**
 * The user message that carries an attached file after the prompt, the way a skill body is
 * injected (SK-11): the model sees the file's text without a `read_file` call, as with Claude
 * Code's `@file`. `</` is escaped so the text cannot close the wrapper early.
 */
export function attachmentMessage(attachment: Attachment): ConversationItem {
  const escape = (text: string) => text.replaceAll("</", "<\\/");
  const note = attachment.truncated ? "\n[truncated: only the beginning of the file is attached]" : "";
  return {
    type: "message",
    role: "user",
    content: `<attached_file path="${escape(attachment.path).replaceAll('"', "&quot;")}">\n${
      escape(attachment.content)
    }${note}\n</attached_file>`,
  };
}
