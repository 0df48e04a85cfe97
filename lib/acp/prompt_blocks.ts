import type { ContentBlock } from "@agentclientprotocol/sdk";
import { fileUrlToPath } from "../platform/mod.ts";
import type { AcpPromptInput } from "./host.ts";

/**
 * A `session/prompt`'s content blocks as one turn's input (#25 item 1): text joined in order; a
 * resource link named in the text as its path (the model reads it with its tools, as an `@path`
 * mention); an embedded text resource attached as a file (`<attached_file>`, the editor's copy,
 * unsaved edits included); an image (block or embedded blob) sent as an image. Audio is not
 * offered in `initialize`, so a client that sends it anyway is told.
 */
export function promptInput(blocks: ContentBlock[]): AcpPromptInput | { refused: string } {
  const text: string[] = [];
  const input: AcpPromptInput = { text: "", images: [], files: [] };
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        text.push(block.text);
        break;
      case "resource_link":
        text.push(`@${pathOf(block.uri)}`);
        break;
      case "image":
        input.images.push({ mimeType: block.mimeType, data: block.data, source: block.uri ?? "image" });
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) {
          input.files.push({ path: pathOf(resource.uri), content: resource.text });
        } else if (resource.mimeType?.startsWith("image/")) {
          input.images.push({ mimeType: resource.mimeType, data: resource.blob, source: resource.uri });
        } else {
          return {
            refused: `Cannot use the embedded resource ${resource.uri}: only text and images are read`,
          };
        }
        break;
      }
      case "audio":
        return { refused: "Cannot use an audio block: Trellis does not accept audio prompts" };
    }
  }
  input.text = text.join(text.some((t) => t.includes("\n")) ? "\n" : " ").trim();
  return input;
}

function pathOf(uri: string): string {
  if (uri.startsWith("file://")) {
    try {
      return fileUrlToPath(uri);
    } catch {
      return uri;
    }
  }
  return uri;
}
