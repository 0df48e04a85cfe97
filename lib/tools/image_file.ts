/**
 * Reads an image for the model (view_image, `@picture.png`, a pasted image path; #23 item 3): the
 * size is checked before a byte is read, the type is sniffed from the bytes (file-type), never taken
 * from the name, and only the formats every wire accepts pass.
 */
import { Buffer } from "node:buffer";
import { fileTypeFromBuffer } from "file-type";
import type { FileSystem } from "../platform/mod.ts";
import type { ImageInput } from "../shared/mod.ts";
import { describeFsError } from "./file_errors.ts";

/** Anthropic's per-image limit is 5 MB and OpenAI's 20 MB: 20 MiB keeps a huge file from being read. */
export const DEFAULT_IMAGE_MAX_BYTES = 20 * 1024 * 1024;

/** What the Responses, Chat and Messages APIs all take. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** File names the pasted-path and `@file` readers treat as images (the bytes still decide). */
export const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i;

export type ImageRead = { ok: true; image: ImageInput } | { ok: false; reason: string };

export async function readImageFile(
  fs: FileSystem,
  path: string,
  shownAs: string,
  maxBytes = DEFAULT_IMAGE_MAX_BYTES,
): Promise<ImageRead> {
  const refuse = (state: string): ImageRead => ({
    ok: false,
    reason: `Cannot attach image "${shownAs}": ${state}`,
  });
  let info;
  try {
    info = await fs.stat(path);
  } catch (error) {
    return { ok: false, reason: describeFsError("attach image", shownAs, error) };
  }
  if (!info) return refuse("no such file or directory");
  if (!info.isFile) return refuse(info.isDirectory ? "is a directory" : "not a regular file");
  if (info.size > maxBytes) {
    return refuse(`${megabytes(info.size)} is over the ${megabytes(maxBytes)} limit for one image`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(path);
  } catch (error) {
    return { ok: false, reason: describeFsError("attach image", shownAs, error) };
  }
  if (bytes.length > maxBytes) return refuse(`over the ${megabytes(maxBytes)} limit for one image`);
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !IMAGE_TYPES.has(type.mime)) {
    const seen = type ? `its bytes are ${type.mime}` : "its bytes are not an image";
    return refuse(`${seen} (PNG, JPEG, GIF and WebP are supported)`);
  }
  return {
    ok: true,
    image: { mimeType: type.mime, data: Buffer.from(bytes).toString("base64"), source: shownAs },
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
