import assert from "node:assert/strict";
import { callDoneLines } from "../../../lib/cli/interactive/tool_summary.ts";
import { glyphs, palette } from "../../../lib/cli/interactive/style.ts";

const c = palette({ color: false, unicode: true });
const g = glyphs({ color: false, unicode: true });
const write = {
  callId: "c",
  name: "write_file",
  arguments: JSON.stringify({ path: "new.txt", content: "x\n" }),
};

// #21 item 6: your own "no" reads back as one short line.
Deno.test("callDoneLines: a call you denied reads `✗ write_file new.txt · denied by you`", () => {
  const lines = callDoneLines(
    { ...write, status: "denied", output: "denied: the user declined (outside the roots)", durationMs: 46 },
    c,
    g,
    80,
  );
  assert.deepEqual(lines, ["✗ write_file new.txt · denied by you"]);
});

Deno.test("callDoneLines: a call denied by policy or a hook keeps its reason", () => {
  const [line] = callDoneLines(
    { ...write, status: "denied", output: 'denied: not known safe (approval_policy = "never" does not ask)' },
    c,
    g,
    100,
  );
  assert.match(line, /^✗ write_file new\.txt · denied: not known safe/, "the status said once");
  assert.doesNotMatch(line, /by you/);
});
