import * as path from "node:path";
import { type Attachment, IMAGE_EXTENSIONS } from "../../app/mod.ts";
import type { FileSystem } from "../../platform/mod.ts";

/** Attached at most (the rest of a larger file is left out, and the model is told). */
export const ATTACH_MAX_BYTES = 256 * 1024;

const MENTION = /(^|\s)@([^\s@]+)/g;

/**
 * Reads the files a prompt mentions as `@path` (relative to the cwd): each regular file's text is
 * attached after the prompt. A mention that names no regular file stays plain text, with a note
 * (a directory, a FIFO, a missing file are never read).
 */
export async function readMentions(
  prompt: string,
  options: { fs: FileSystem; cwd: string },
): Promise<{ attachments: Attachment[]; notes: string[] }> {
  const attachments: Attachment[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const match of prompt.matchAll(MENTION)) {
    const written = match[2].replace(/[.,;:!?)]+$/, "");
    if (seen.has(written)) continue;
    seen.add(written);
    const file = path.resolve(options.cwd, written);
    const info = await options.fs.stat(file).catch(() => null);
    if (!info) {
      notes.push(`@${written}: no such file, not attached`);
      continue;
    }
    if (!info.isFile) {
      notes.push(`@${written}: not a regular file, not attached`);
      continue;
    }
    if (IMAGE_EXTENSIONS.test(written)) {
      // The session reads it as an image (type sniffed from its bytes, size capped; #23 item 3).
      attachments.push({ path: written, content: "", kind: "image" });
      notes.push(`@${written}: attached as an image (${info.size} bytes)`);
      continue;
    }
    const bytes = await options.fs.readFilePrefix(file, ATTACH_MAX_BYTES + 1);
    const truncated = bytes.length > ATTACH_MAX_BYTES;
    const content = new TextDecoder().decode(truncated ? bytes.subarray(0, ATTACH_MAX_BYTES) : bytes);
    attachments.push({ path: written, content, ...(truncated ? { truncated } : {}) });
    notes.push(
      `@${written}: attached (${
        bytes.length > ATTACH_MAX_BYTES ? `first ${ATTACH_MAX_BYTES} of ${info.size}` : info.size
      } bytes)`,
    );
  }
  return { attachments, notes };
}
