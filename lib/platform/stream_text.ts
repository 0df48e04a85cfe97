/**
 * Reads a child's output stream to its end, keeping at most `maxBytes`, and hands the first line to
 * `onFirstLine` as soon as it is complete (or the whole text, if the stream ends without a newline),
 * so the hook runner can see `{"async": true}` while the hook is still running. `runCommand` reads
 * through it too: one reader, so both report truncation alike.
 */
export async function readStreamText(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  onFirstLine?: (line: string) => void,
): Promise<{ text: string; truncated: boolean }> {
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  let truncated = false;
  let lineSeen = onFirstLine === undefined;
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      if (value.length > room) truncated = true;
      const take = room > 0 ? value.subarray(0, room) : value.subarray(0, 0);
      size += take.length;
      text += decoder.decode(take, { stream: true });
      if (!lineSeen && text.includes("\n")) {
        lineSeen = true;
        onFirstLine!(text.slice(0, text.indexOf("\n")));
      }
    }
  } catch {
    // the process was killed mid-read; keep what arrived
  }
  text += decoder.decode();
  if (!lineSeen) onFirstLine!(text);
  return { text, truncated };
}
