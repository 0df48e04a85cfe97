import assert from "node:assert/strict";
import { terminalStatusLine } from "../../lib/cli/status_line.ts";

/** A status line whose drawing is recorded; `flushed` resolves when the test says stdout is out. */
function recordedLine() {
  const written: string[] = [];
  let flush: () => void = () => {};
  const line = terminalStatusLine({
    write: (text) => void written.push(text),
    flushed: () => new Promise<void>((resolve) => flush = resolve),
    utf8: true,
  });
  return { line, written, flush: async () => (flush(), await Promise.resolve(), await Promise.resolve()) };
}

Deno.test("terminalStatusLine() draws only once queued stdout is out, and erases itself before the answer streams", async () => {
  const { line, written, flush } = recordedLine();
  line.observe({ type: "turn.started", turn_id: "t1" });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(written, [], "nothing is drawn while stdout still has queued text");
  await flush();
  // deno-lint-ignore no-control-regex
  assert.match(written.join(""), /^\r\x1b\[K⠋ thinking · 0s$/);
  line.observe({ type: "item.agent_message.delta", item_id: "i", delta: "Hi" });
  assert.equal(written.at(-1), "\r\x1b[K");
  line.stop();
});

Deno.test("terminalStatusLine() shows a running tool, then MCP progress, and stays hidden while paused", async () => {
  const { line, written, flush } = recordedLine();
  line.observe({
    type: "item.started",
    item: {
      id: "i1",
      type: "tool_call",
      name: "read_file",
      call_id: "c1",
      arguments: "{}",
      source: "builtin",
      status: "in_progress",
      call_status: "in_progress",
    },
  });
  await flush();
  assert.match(written.at(-1)!, /running read_file · 0s$/);
  line.observe({
    type: "mcp.tool_progress",
    server: "fx",
    tool: "copy",
    call_id: "c1",
    progress: 2,
    total: 5,
  });
  line.clear();
  await flush();
  assert.match(written.at(-1)!, /fx copy: 2\/5 · 0s$/);
  line.pause();
  const count = written.length;
  line.observe({
    type: "mcp.tool_progress",
    server: "fx",
    tool: "copy",
    call_id: "c1",
    progress: 3,
    total: 5,
  });
  await flush();
  assert.equal(written.length, count, "nothing is drawn while a prompt is open");
  line.resume();
  await flush();
  assert.match(written.at(-1)!, /fx copy: 3\/5 · 0s$/);
  line.stop();
  assert.equal(written.at(-1), "\r\x1b[K");
});

Deno.test("terminalStatusLine() flattens control characters a server puts in its progress message", async () => {
  const { line, written, flush } = recordedLine();
  line.observe({
    type: "mcp.tool_progress",
    server: "fx",
    tool: "t",
    call_id: "c",
    progress: 1,
    message: "step\x1b]52;c;Zm9v\x07\nnext",
  });
  await flush();
  assert.match(written.at(-1)!, /fx t: 1 step \]52;c;Zm9v next · 0s$/);
  line.stop();
});
