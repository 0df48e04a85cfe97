import assert from "node:assert/strict";
import { interactiveElicitation, parseField } from "../../../lib/cli/interactive/elicitation_form.ts";
import { FakeUi, key } from "./_fake_ui.ts";

Deno.test("parseField checks type, range, length, format and choices", () => {
  assert.deepEqual(parseField("", { type: "string" }, true), { error: "a value is required" });
  assert.deepEqual(parseField("", { type: "string" }, false), { value: undefined });
  assert.deepEqual(parseField("12", { type: "integer", maximum: 10 }, true), { error: "at most 10" });
  assert.deepEqual(parseField("1.5", { type: "integer" }, true), { error: "enter a whole number" });
  assert.deepEqual(parseField("3", { type: "number", minimum: 1 }, true), { value: 3 });
  assert.deepEqual(parseField("ab", { type: "string", minLength: 3 }, true), {
    error: "at least 3 characters",
  });
  assert.deepEqual(parseField("not-mail", { type: "string", format: "email" }, true), {
    error: "not a valid email",
  });
  assert.deepEqual(parseField("a@b.io", { type: "string", format: "email" }, true), { value: "a@b.io" });
  const choices = [{ value: "r", title: "Red" }, { value: "g", title: "Green" }];
  assert.deepEqual(parseField("Red, g", { type: "array" }, true, choices), { value: ["r", "g"] });
  assert.deepEqual(parseField("blue", { type: "array" }, true, choices), {
    error: '"blue" is not one of the choices',
  });
});

const ask = (ui: FakeUi, schema: Record<string, unknown>) =>
  interactiveElicitation(ui, { openUrl: () => Promise.resolve(false) }).respond(
    { server: "srv", id: "e1", mode: "form", message: "Who are you? \x1b]0;title\x07", schema },
    new AbortController().signal,
  );

async function type(ui: FakeUi, text: string) {
  const q = await ui.question();
  for (const ch of text) q.key(key(ch));
  q.key(key("\r", { name: "return" }));
  await new Promise((r) => setTimeout(r, 0));
}

Deno.test("interactiveElicitation fills a form field by field and refuses an invalid value in place", async () => {
  const ui = new FakeUi();
  const answer = ask(ui, {
    type: "object",
    properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } },
    required: ["name"],
  });
  await type(ui, "Ada");
  await type(ui, "-1");
  const field = await ui.question();
  assert.match(field.view(80).rows.join("\n"), /at least 0/);
  field.key(key("", { name: "backspace" }));
  field.key(key("", { name: "backspace" }));
  await type(ui, "36");
  await ui.answer("y");
  assert.deepEqual(await answer, { action: "accept", content: { name: "Ada", age: 36 } });
  assert.match(ui.printed.join("\n"), /Who are you\? ␛\]0;title␇/);
});

Deno.test("interactiveElicitation: Esc on a field cancels, and a decline is sent as one", async () => {
  const ui = new FakeUi();
  const cancelled = ask(ui, { type: "object", properties: { name: { type: "string" } } });
  await ui.answer(key("", { name: "escape" }));
  assert.deepEqual(await cancelled, { action: "cancel" });
  const declined = ask(ui, { type: "object", properties: { ok: { type: "boolean" } } });
  await ui.answer("y");
  await new Promise((r) => setTimeout(r, 0));
  await ui.answer("d");
  assert.deepEqual(await declined, { action: "decline" });
});

Deno.test("interactiveElicitation URL mode opens an http(s) URL in the browser, never another scheme (MCP-15, #15 item 4)", async () => {
  const opened: string[] = [];
  const respond = (ui: FakeUi, url: string) =>
    interactiveElicitation(ui, {
      openUrl: (u) => {
        opened.push(u.href);
        return Promise.resolve(true);
      },
    }).respond(
      { server: "srv", id: "e2", mode: "url", message: "Sign in", url },
      new AbortController().signal,
    );
  const ui = new FakeUi();
  const answer = respond(ui, "https://example.test/login?x=1");
  await ui.answer("y");
  assert.deepEqual(await answer, { action: "accept" });
  assert.deepEqual(opened, ["https://example.test/login?x=1"]);
  assert.ok(ui.printed.includes("  opened in your browser"));
  const other = new FakeUi();
  const file = respond(other, "file:///etc/passwd");
  await other.answer("c");
  assert.deepEqual(await file, { action: "cancel" });
  assert.equal(opened.length, 1, "a file: URL is shown, not opened");
  assert.ok(other.printed.includes("  open this URL in a browser"));
  const bad = new FakeUi();
  assert.deepEqual(await respond(bad, "not a url\x1b[2J"), { action: "decline" });
  assert.ok(bad.printed.some((l) => l.includes("invalid URL: not a url␛[2J")));
});
