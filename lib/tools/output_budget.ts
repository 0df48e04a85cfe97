/** Default budget for one tool output sent to the model. */
export const DEFAULT_OUTPUT_MAX_BYTES = 64 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Keeps the head and the tail of an output over `maxBytes` (UTF-8) and says how much was cut: the
 * start of a log shows what ran, the end shows how it finished.
 */
export function truncateOutput(text: string, maxBytes: number = DEFAULT_OUTPUT_MAX_BYTES): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  const half = Math.floor(maxBytes / 2);
  const head = decoder.decode(bytes.subarray(0, boundary(bytes, half)));
  const tailStart = boundary(bytes, bytes.length - half);
  const tail = decoder.decode(bytes.subarray(tailStart));
  const omitted = tailStart - encoder.encode(head).length;
  return `${head}\n[… ${omitted} bytes omitted …]\n${tail}`;
}

/** Moves an offset back to the start of a UTF-8 character so no character is split. */
function boundary(bytes: Uint8Array, offset: number): number {
  let at = offset;
  while (at > 0 && at < bytes.length && (bytes[at] & 0xc0) === 0x80) at--;
  return at;
}
