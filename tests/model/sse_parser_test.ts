import assert from "node:assert/strict";
import fc from "fast-check";
import { createSseParser, type SseEvent } from "../../lib/model/mod.ts";

function parseAll(chunks: string[]): SseEvent[] {
  const parser = createSseParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

Deno.test("createSseParser() returns named events with joined data lines when lines end in \\n", () => {
  const text = 'event: a\ndata: one\ndata: two\n\n: a comment\ndata:{"x":1}\nid: 7\n\n';
  assert.deepEqual(parseAll([text]), [
    { event: "a", data: "one\ntwo" },
    { event: "message", data: '{"x":1}', id: "7" },
  ]);
});

Deno.test("createSseParser() accepts \\r\\n and lone \\r line endings when a chunk splits them", () => {
  assert.deepEqual(parseAll(["data: a\r", "\n\r", "\ndata: b\r\r"]), [
    { event: "message", data: "a" },
    { event: "message", data: "b" },
  ]);
});

Deno.test("createSseParser() drops an event without its blank line when the stream ends", () => {
  assert.deepEqual(parseAll(["data: complete\n\ndata: partial\n"]), [{ event: "message", data: "complete" }]);
});

Deno.test("createSseParser() ignores lines without a known field when the body is not SSE", () => {
  assert.deepEqual(parseAll(["<html>oops</html>\n\nretry: 10\n\n"]), []);
});

Deno.test("createSseParser() yields the same events when the text is split at any points", () => {
  const eventArb = fc.record({
    event: fc.constantFrom("message", "response.output_text.delta", "x"),
    data: fc.string({ unit: fc.constantFrom("a", "b", " ", ":", "é", "{", "}") }),
  });
  fc.assert(
    fc.property(
      fc.array(eventArb, { maxLength: 6 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      (events, cuts) => {
        const text = events.map((e) => `event: ${e.event}\ndata: ${e.data}\r\n\n`).join("");
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points, text.length].slice(1).map((end, i, ends) =>
          text.slice(i === 0 ? 0 : ends[i - 1], end)
        );
        assert.deepEqual(parseAll(chunks), parseAll([text]));
        assert.deepEqual(parseAll([text]), events.map((e) => ({ event: e.event, data: e.data })));
      },
    ),
  );
});

Deno.test("createSseParser() progress grows with events and unknown fields, never with keep-alive comments (#13 item 13, #16 item 7)", () => {
  const parser = createSseParser();
  parser.push(": keep-alive\n\n: keep-alive\r\n\r\n");
  assert.equal(parser.progress, 0);
  parser.push("data: x\n\n");
  assert.equal(parser.progress, 1);
  parser.push("bogus: y\n");
  assert.equal(parser.progress, 2);
});
