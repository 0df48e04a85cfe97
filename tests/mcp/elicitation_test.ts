import assert from "node:assert/strict";
import { type ElicitationResponder, ElicitationRouter, ttyElicitationResponder } from "../../lib/mcp/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";

const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const never: ElicitationResponder = { respond: () => new Promise(() => {}) };
const accepting: ElicitationResponder = {
  respond: () => Promise.resolve({ action: "accept", content: { name: "x" } }),
};

Deno.test("ElicitationRouter.request() follows the MCP-15 decision order", async () => {
  const signal = new AbortController().signal;
  const ask = (router: ElicitationRouter, schema: Record<string, unknown>) =>
    router.request({ server: "s", mode: "form", message: "m", schema }, signal);
  const events: TrellisEventBody[] = [];
  const sink = (e: TrellisEventBody) => events.push(e);
  assert.deepStrictEqual(
    await ask(new ElicitationRouter(accepting, { approvalPolicy: "on-request", autoDeny: true }, sink), {}),
    {
      action: "decline",
    },
  );
  const auto = new ElicitationRouter(accepting, { approvalPolicy: "never", autoApprove: true }, sink);
  assert.deepStrictEqual(await ask(auto, { type: "object", properties: {} }), {
    action: "accept",
    content: {},
  });
  // Forms with required fields are never auto-filled; approval "never" then declines.
  assert.deepStrictEqual(await ask(auto, FORM), { action: "decline" });
  // Every elicitation is reported, also those the policy answered without asking (#13, #14 item 10).
  const decided = (id: string, action: string) => ({
    type: "mcp.elicitation",
    server: "s",
    id,
    mode: "form",
    message: "m",
    action,
  });
  assert.deepStrictEqual(events.splice(0), [
    decided("trellis-elicitation-1", "decline"),
    decided("trellis-elicitation-1", "accept"),
    decided("trellis-elicitation-2", "decline"),
  ]);
  const asking = new ElicitationRouter(accepting, { approvalPolicy: "on-request" }, sink);
  assert.deepStrictEqual(await ask(asking, FORM), { action: "accept", content: { name: "x" } });
  assert.deepStrictEqual(events, [
    { type: "mcp.elicitation", server: "s", id: "trellis-elicitation-1", mode: "form", message: "m" },
    {
      type: "mcp.elicitation",
      server: "s",
      id: "trellis-elicitation-1",
      mode: "form",
      message: "m",
      action: "accept",
    },
  ]);
});

Deno.test("ElicitationRouter.answer() reaches exactly one waiter; cancelling removes only it (MCP-15)", async () => {
  const router = new ElicitationRouter(never, { approvalPolicy: "on-request" }, () => {});
  const cancel = new AbortController();
  const a = router.request({ server: "a", mode: "url", message: "go", url: "https://x" }, cancel.signal);
  const b = router.request(
    { server: "b", mode: "form", message: "f", schema: FORM },
    new AbortController().signal,
  );
  assert.deepStrictEqual(router.pending, ["a\0trellis-elicitation-1", "b\0trellis-elicitation-2"]);
  assert.deepStrictEqual(router.answer("a", "trellis-elicitation-2", { action: "accept" }), false);
  cancel.abort();
  assert.deepStrictEqual(await a, { action: "cancel" });
  assert.deepStrictEqual(router.pending, ["b\0trellis-elicitation-2"]);
  assert.deepStrictEqual(router.answer("b", "trellis-elicitation-2", { action: "decline" }), true);
  assert.deepStrictEqual(await b, { action: "decline" });
});

Deno.test("ttyElicitationResponder() prompts primitives, enums, defaults and required fields", async () => {
  const answers = ["", "Ann", "maybe", "n", "3", "", "!nope", "2"];
  const io = { readLine: () => Promise.resolve(answers.shift() ?? null), write: () => {} };
  const schema = {
    type: "object",
    properties: {
      name: { type: "string" },
      ok: { type: "boolean" },
      count: { type: "integer", minimum: 1 },
      size: { type: "number", default: 1.5 },
      color: { type: "string", enum: ["red", "green"] },
    },
    required: ["name", "ok"],
  };
  const result = await ttyElicitationResponder(io).respond(
    { server: "s", id: "trellis-elicitation-1", mode: "form", message: "m", schema },
    new AbortController().signal,
  );
  assert.deepStrictEqual(result, {
    action: "accept",
    content: { name: "Ann", ok: false, count: 3, size: 1.5, color: "green" },
  });
  const declined = await ttyElicitationResponder({
    readLine: () => Promise.resolve("!decline"),
    write: () => {},
  })
    .respond({ server: "s", id: "i", mode: "form", message: "m", schema }, new AbortController().signal);
  assert.deepStrictEqual(declined, { action: "decline" });
});

Deno.test("ttyElicitationResponder() shows a server's message, fields and URL with escape sequences made visible (#13 item 11)", async () => {
  const ESC = "\x1b";
  let screen = "";
  const answers = ["1", ""];
  const io = {
    readLine: () => Promise.resolve(answers.shift() ?? null),
    write: (text: string) => void (screen += text),
  };
  const responder = ttyElicitationResponder(io);
  await responder.respond({
    server: "docs",
    id: "trellis-elicitation-1",
    mode: "form",
    message: `Pick one${ESC}[2J\n${ESC}]52;c;cm0gLXJmIH4=${ESC}\\`,
    schema: {
      type: "object",
      properties: {
        choice: {
          type: "string",
          title: `Choice${ESC}[8m`,
          description: "\u202eevil",
          enum: ["a", `b${ESC}[1A`],
          enumNames: [`A\rX`, "B"],
        },
      },
    },
  }, new AbortController().signal);
  await responder.respond({
    server: "docs",
    id: "trellis-elicitation-2",
    mode: "url",
    message: "Sign in",
    url: `https://example.com/${ESC}[2K\u202e`,
  }, new AbortController().signal);
  assert.equal(
    screen,
    [
      "",
      "MCP server 'docs' asks (trellis-elicitation-1): Pick one␛[2J",
      "␛]52;c;cm0gLXJmIH4=␛\\",
      "  (Enter keeps a default; !decline or !cancel to stop)",
      "  Choice␛[8m (choice) — \\u202eevil",
      "    1. A␍X [a]",
      "    2. B [b␛[1A]",
      "  string: ",
      "MCP server 'docs' asks (trellis-elicitation-2): Sign in",
      "  Open: https://example.com/␛[2K\\u202e",
      "  Press Enter when done, or type !decline / !cancel: ",
    ].join("\n"),
  );
});
