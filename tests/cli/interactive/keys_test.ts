import assert from "node:assert/strict";
import { KeyDecoder, type KeyEvent } from "../../../lib/cli/interactive/keys.ts";

function decode(chunks: string[]): Promise<KeyEvent[]> {
  const keys: KeyEvent[] = [];
  const decoder = new KeyDecoder((k) => keys.push(k));
  for (const chunk of chunks) decoder.feed(chunk);
  return new Promise((resolve) =>
    setTimeout(() => {
      decoder.close();
      resolve(keys);
    }, 50)
  );
}

const names = (keys: KeyEvent[]) =>
  keys.map((k) =>
    k.kind === "paste" ? `paste:${k.text}` : `${k.ctrl ? "C-" : ""}${k.meta ? "M-" : ""}${k.name ?? k.text}`
  );

Deno.test("KeyDecoder names keys as readline does: letters, Ctrl-C, Enter, Alt-Enter, arrows", async () => {
  assert.deepEqual(names(await decode(["ab\x03\r\x1b\r\x1b[A"])), [
    "a",
    "b",
    "C-c",
    "return",
    "M-return",
    "up",
  ]);
});

Deno.test("KeyDecoder delivers a bracketed paste whole, markers split across reads, CR LF as LF", async () => {
  const keys = await decode(["x\x1b[20", "0~line one\r\nline", " two\x1b[2", "01~y"]);
  assert.deepEqual(names(keys), ["x", "paste:line one\nline two", "y"]);
});

Deno.test("KeyDecoder does not turn escape sequences inside a paste into keys", async () => {
  const keys = await decode(["\x1b[200~\x03\x1b[A\x1b[201~"]);
  assert.deepEqual(names(keys), ["paste:\x03\x1b[A"]);
});

Deno.test("KeyDecoder takes 5 MB of paste in one piece", async () => {
  const big = "y".repeat(5 * 1024 * 1024);
  const keys = await decode(["\x1b[200~", big.slice(0, 3_000_000), big.slice(3_000_000), "\x1b[201~"]);
  assert.equal(keys.length, 1);
  assert.equal(keys[0].kind === "paste" && keys[0].text.length, big.length);
});

Deno.test("KeyDecoder reports a lone Esc as a key once nothing follows it", async () => {
  const keys: KeyEvent[] = [];
  const decoder = new KeyDecoder((k) => keys.push(k));
  decoder.feed("\x1b");
  await new Promise((resolve) => setTimeout(resolve, 700));
  decoder.close();
  assert.deepEqual(names(keys), ["M-escape"]);
});
