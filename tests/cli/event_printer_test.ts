import assert from "node:assert/strict";
import { createContext } from "../../lib/cli/context.ts";
import { humanEventPrinter, jsonEventPrinter } from "../../lib/cli/event_printer.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";

/** A context whose stdout and stderr are strings; `fail` makes every stdout write throw it. */
function captured(fail?: unknown) {
  const out = { stdout: "", stderr: "", writes: 0 };
  const fake: Platform = {
    ...platform,
    writeStdout: (text) => {
      out.writes++;
      if (fail) return Promise.reject(fail);
      out.stdout += text;
      return Promise.resolve();
    },
    writeStderr: (text) => void (out.stderr += text),
  };
  return { ctx: createContext(fake), out };
}

const delta = (delta: string, item_id = "item_1"): TrellisEventBody => ({
  type: "item.agent_message.delta",
  item_id,
  delta,
});
const message = (text: string, id = "item_1"): TrellisEventBody => ({
  type: "item.completed",
  item: { id, type: "agent_message", text },
});
const lines = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line));

Deno.test("jsonEventPrinter() joins the deltas that arrive together into one line and keeps event order", async () => {
  const { ctx, out } = captured();
  const print = jsonEventPrinter(ctx);
  print({ type: "turn.started", turn_id: "t1" });
  for (const piece of ["Hel", "lo ", "there"]) print(delta(piece));
  print(message("Hello there"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  await ctx.flush();
  assert.deepEqual(lines(out.stdout), [
    { version: 1, type: "turn.started", turn_id: "t1" },
    { version: 1, type: "item.agent_message.delta", item_id: "item_1", delta: "Hello there" },
    {
      version: 1,
      type: "item.completed",
      item: { id: "item_1", type: "agent_message", text: "Hello there" },
    },
  ]);
});

Deno.test("jsonEventPrinter() writes a held delta once the event loop turns, without waiting for the next event", async () => {
  const { ctx, out } = captured();
  const print = jsonEventPrinter(ctx);
  print(delta("first"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  await ctx.flush();
  print(delta("second"));
  print(delta("!", "item_2"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  await ctx.flush();
  assert.deepEqual(lines(out.stdout).map((e) => [e.item_id, e.delta]), [
    ["item_1", "first"],
    ["item_1", "second"],
    ["item_2", "!"],
  ]);
});

Deno.test("humanEventPrinter() streams message text to stdout and ends each message with one newline", async () => {
  const { ctx, out } = captured();
  const print = humanEventPrinter(ctx);
  print(delta("Hello "));
  print(delta("world"));
  print(message("Hello world"));
  print(delta("Ends with newline\n", "item_2"));
  print(message("Ends with newline\n", "item_2"));
  // A message that never streamed (a provider without deltas) is written whole.
  print(message("whole", "item_3"));
  await ctx.flush();
  assert.equal(out.stdout, "Hello world\nEnds with newline\nwhole\n");
  assert.equal(out.stderr, "");
});

Deno.test("createContext() drops later output quietly and aborts stdoutClosed when stdout's reader is gone", async () => {
  const epipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
  const { ctx, out } = captured(epipe);
  await ctx.out("one\n");
  assert.equal(ctx.stdoutClosed.aborted, true);
  await ctx.out("two\n");
  await ctx.flush();
  assert.deepEqual(out, { stdout: "", stderr: "", writes: 1 });
});

Deno.test("createContext() says once on stderr why stdout failed when the failure is not a closed reader", async () => {
  const { ctx, out } = captured(new Error("No space left on device (os error 28)"));
  await ctx.out("one\n");
  await ctx.out("two\n");
  assert.equal(ctx.stdoutClosed.aborted, true);
  assert.equal(out.stderr, "error: cannot write to stdout: No space left on device (os error 28)\n");
});
