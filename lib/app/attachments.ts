import type { ConversationItem, ImageInput } from "../shared/mod.ts";

/**
 * A file the person attached to a prompt with `@path` (read by the UI, which reports problems). An
 * image (`kind: "image"`, #23 item 3) is read by the session, which sniffs and caps it.
 */
export interface Attachment {
  /** As the person wrote it (relative to the cwd, or absolute). */
  path: string;
  content: string;
  /** "image": `content` is empty; the session reads the file as an image. */
  kind?: "text" | "image";
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

/** The user message that carries an image after the prompt (`@picture.png`, a pasted path). */
export function imageMessage(image: ImageInput): ConversationItem {
  const shown = (image.source ?? "image").replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll(
    "<",
    "&lt;",
  );
  return {
    type: "message",
    role: "user",
    content: `<attached_image path="${shown}" type="${image.mimeType}" />`,
    images: [image],
  };
}
