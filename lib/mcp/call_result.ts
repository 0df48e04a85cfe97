import type { OutputPart, ToolResult } from "../shared/mod.ts";

/** Default model-facing output budget for one MCP result, in bytes. */
export const DEFAULT_OUTPUT_BUDGET_BYTES = 16 * 1024;

type Block = Record<string, unknown> & { type: string };

/** Keeps the first and last halves of an over-budget text with a marker saying how much was cut. */
export function truncateHeadTail(text: string, budgetBytes: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= budgetBytes) return text;
  const half = Math.floor(budgetBytes / 2);
  // Decoding a cut multi-byte sequence yields U+FFFD; drop it rather than show a broken char.
  const decoder = new TextDecoder();
  const head = decoder.decode(bytes.subarray(0, half)).replace(/\uFFFD$/, "");
  const tail = decoder.decode(bytes.subarray(bytes.length - half)).replace(/^\uFFFD/, "");
  return `${head}\n…[${bytes.length - 2 * half} bytes truncated]…\n${tail}`;
}

function base64Bytes(data: string): number {
  return Math.floor(data.length * 3 / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
}

/** One content block → its text for the output string and, for media, a part for the provider. */
function convertBlock(block: Block): { text?: string; part?: OutputPart } {
  switch (block.type) {
    case "text":
      return { text: String(block.text ?? "") };
    case "image":
    case "audio": {
      const mimeType = String(block.mimeType ?? "application/octet-stream");
      const data = String(block.data ?? "");
      return {
        text: `[${block.type}: ${mimeType}, ${base64Bytes(data)} bytes]`,
        part: { type: block.type, mimeType, data },
      };
    }
    case "resource_link":
      return {
        text: `[resource link: ${block.name ?? block.uri} <${block.uri}>${
          block.mimeType ? ` (${block.mimeType})` : ""
        }${block.description ? ` ${block.description}` : ""}]`,
      };
    case "resource":
      return convertEmbedded(block.resource as Record<string, unknown>);
    default:
      return { text: JSON.stringify(block) };
  }
}

/** The text a person or model reads for one content block (media become a one-line note). */
export function contentBlockText(block: Block): string {
  return convertBlock(block).text ?? "";
}

function convertEmbedded(resource: Record<string, unknown>): { text?: string; part?: OutputPart } {
  const mimeType = resource.mimeType ? String(resource.mimeType) : undefined;
  if (typeof resource.text === "string") {
    return {
      text: `[embedded resource <${resource.uri}>${mimeType ? ` (${mimeType})` : ""}]\n${resource.text}`,
    };
  }
  const blob = String(resource.blob ?? "");
  const text = `[embedded resource <${resource.uri}> (${mimeType ?? "binary"}), ${base64Bytes(blob)} bytes]`;
  if (mimeType?.startsWith("image/")) return { text, part: { type: "image", mimeType, data: blob } };
  if (mimeType?.startsWith("audio/")) return { text, part: { type: "audio", mimeType, data: blob } };
  return { text };
}

/**
 * A `tools/call` result → function output. structuredContent, when present, is the output (as
 * Codex does) and the blocks' texts, when there are any, are what a person is shown
 * (`displayText`); otherwise the blocks' texts are both. Media become provider parts. isError →
 * error status.
 */
export function convertCallResult(
  result: { content?: unknown[]; structuredContent?: unknown; isError?: boolean; toolResult?: unknown },
  options: { budgetBytes?: number } = {},
): ToolResult {
  const budget = options.budgetBytes ?? DEFAULT_OUTPUT_BUDGET_BYTES;
  const converted = (result.content ?? []).map((b) => convertBlock(b as Block));
  const texts = converted.flatMap((c) => c.text !== undefined ? [c.text] : []);
  const media = converted.flatMap((c) => c.part ? [c.part] : []);
  let output: string;
  let displayText: string | undefined;
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    output = JSON.stringify(result.structuredContent);
    if (texts.length > 0) displayText = truncateHeadTail(texts.join("\n"), budget);
  } else if (result.content === undefined && result.toolResult !== undefined) {
    output = JSON.stringify(result.toolResult); // pre-2025 servers
  } else {
    output = texts.join("\n");
  }
  output = truncateHeadTail(output, budget);
  const status = result.isError ? "error" : "success";
  const shown = displayText !== undefined && displayText !== output ? { displayText } : {};
  if (media.length === 0) return { output, status, ...shown };
  return { output, status, content: [{ type: "text", text: output }, ...media], ...shown };
}
