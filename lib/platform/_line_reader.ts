/** One shared line reader over stdin, so successive prompts never lose buffered input. */
export function lineReader(open: () => ReadableStream<Uint8Array>): () => Promise<string | null> {
  let reader: ReadableStreamDefaultReader<string> | null = null;
  let buffer = "";
  let done = false;
  return async () => {
    reader ??= open().pipeThrough(new TextDecoderStream()).getReader();
    while (true) {
      const newline = buffer.indexOf("\n");
      if (newline >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, "");
        buffer = buffer.slice(newline + 1);
        return line;
      }
      if (done) {
        if (buffer.length === 0) return null;
        const rest = buffer;
        buffer = "";
        return rest;
      }
      const chunk = await reader.read();
      if (chunk.done) done = true;
      else buffer += chunk.value;
    }
  };
}
