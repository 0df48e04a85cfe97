/**
 * The images a prompt brings (#23 item 3): `@picture.png` attachments and image paths pasted into
 * the prompt (a terminal pastes a dropped file as its path, quoted when it has spaces). Each is
 * read by readImageFile (size cap, bytes sniffed); one that fails is reported and left out, and the
 * turn goes on.
 */
import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import type { ConversationItem, EventSink } from "../shared/mod.ts";
import { IMAGE_EXTENSIONS, readImageFile } from "../tools/mod.ts";
import { type Attachment, imageMessage } from "./attachments.ts";

/** An absolute, `~/`, `./` or `../` path ending in an image extension: quoted (spaces allowed) or bare. */
const PASTED_PATH =
  /(?:^|\s)(?:'((?:~|\.{1,2})?\/[^'\n]+)'|"((?:~|\.{1,2})?\/[^"\n]+)"|((?:~|\.{1,2})?\/(?:\\ |[^\s'"])+))(?=\s|$)/g;

export interface PromptImageOptions {
  fs: FileSystem;
  cwd: string;
  home?: string;
  maxBytes: number;
  events: EventSink;
}

/** Messages to send after the prompt: one per image, in the order the prompt names them. */
export async function promptImageMessages(
  prompt: string,
  attachments: readonly Attachment[],
  options: PromptImageOptions,
): Promise<ConversationItem[]> {
  const named: string[] = attachments.filter((a) => a.kind === "image").map((a) => a.path);
  for (const written of pastedImagePaths(prompt)) {
    // A path the prompt only talks about ("write the chart to /tmp/out.png") is no paste.
    if (!named.includes(written) && await options.fs.stat(resolve(written, options)).catch(() => null)) {
      named.push(written);
    }
  }
  const messages: ConversationItem[] = [];
  const seen = new Set<string>();
  for (const written of named) {
    const file = resolve(written, options);
    if (seen.has(file)) continue;
    seen.add(file);
    const read = await readImageFile(options.fs, file, written, options.maxBytes);
    if (read.ok) messages.push(imageMessage(read.image));
    else options.events({ type: "warning", message: `${read.reason}; not attached`, subject: written });
  }
  return messages;
}

/** The image paths pasted into a prompt, as written (quotes removed, `\ ` unescaped). */
export function pastedImagePaths(prompt: string): string[] {
  const found: string[] = [];
  for (const match of prompt.matchAll(PASTED_PATH)) {
    const written = match[1] ?? match[2] ?? match[3].replaceAll("\\ ", " ");
    if (IMAGE_EXTENSIONS.test(written)) found.push(written);
  }
  return found;
}

function resolve(written: string, options: PromptImageOptions): string {
  if (written.startsWith("~/") && options.home) return path.join(options.home, written.slice(2));
  return path.resolve(options.cwd, written);
}
