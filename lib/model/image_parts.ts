/**
 * One image (ImageInput, or an MCP/tool image part) as each wire carries it (#23 item 3): in user
 * content on all three wires, and in tool results on Responses and Messages.
 */
import type { ImageInput } from "../shared/mod.ts";

type Image = Pick<ImageInput, "mimeType" | "data">;

const dataUrl = (image: Image) => `data:${image.mimeType};base64,${image.data}`;

/** Responses API: an `input_image` content part with a data URL, as Codex sends view_image's. */
export function responsesImagePart(image: Image): Record<string, unknown> {
  return { type: "input_image", image_url: dataUrl(image) };
}

/** Chat Completions: an `image_url` content part (user messages only; tool messages are text). */
export function chatImagePart(image: Image): Record<string, unknown> {
  return { type: "image_url", image_url: { url: dataUrl(image) } };
}

/** Anthropic Messages: an `image` block with a base64 source, in user content or a tool_result. */
export function messagesImageBlock(image: Image): Record<string, unknown> {
  return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}
