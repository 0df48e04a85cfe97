/**
 * #23 item 3: image input — view_image, an image path pasted into the prompt, `@picture.png` — on
 * the Responses and Chat wires through the real fixture model; bad input (bytes that are not an
 * image, a 50 MB file) is a clear error and the session goes on.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { execWithCalls, outputText } from "../tools/_everyday_exec.ts";

/** A real 1×1 PNG. */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const DATA_URL = `data:image/png;base64,${PNG_BASE64}`;

async function images(ws: string) {
  await platform.fs.writeFile(`${ws}/shot.png`, new Uint8Array(Buffer.from(PNG_BASE64, "base64")));
  await platform.fs.writeTextFile(`${ws}/fake.png`, "this is text, not a picture\n");
  // Sparse: 50 MB of size without 50 MB of disk.
  await platform.fs.writeTextFile(`${ws}/huge.png`, "");
  Deno.truncateSync(`${ws}/huge.png`, 50 * 1024 * 1024);
}

Deno.test("view_image hands a PNG to the model as an input_image part of the call's output (Responses)", async () => {
  const run = await execWithCalls([[{ name: "view_image", arguments: { path: "shot.png" } }]], [], images);
  assert.equal(run.code, 0, run.stderr);
  const output = run.outputs[0].output as { type: string; image_url?: string; text?: string }[];
  assert.ok(Array.isArray(output), JSON.stringify(output));
  assert.deepEqual(output.find((p) => p.type === "input_image"), {
    type: "input_image",
    image_url: DATA_URL,
  });
});

Deno.test("view_image refuses bytes that are not an image and a 50 MB file, by name; the turn goes on", async () => {
  const run = await execWithCalls(
    [[{ name: "view_image", arguments: { path: "fake.png" } }], [{
      name: "view_image",
      arguments: { path: "huge.png" },
    }]],
    [],
    images,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    outputText(run.outputs[0].output),
    'Cannot attach image "fake.png": its bytes are not an image (PNG, JPEG, GIF and WebP are supported)',
  );
  assert.equal(
    outputText(run.outputs[1].output),
    'Cannot attach image "huge.png": 50.0 MiB is over the 20.0 MiB limit for one image',
  );
  assert.equal(run.events.filter((e) => e.type === "turn.completed").length, 1);
  assert.equal(run.events.findLast((e) => e.type === "item.completed")?.item.text, "done");
});

Deno.test("an image path pasted into the prompt is sent as an image after it; a path that only names a missing file is not", async () => {
  const pasted = await execWithCalls([], [], images, "what is in './shot.png' and /nowhere/out.png ?");
  const input = pasted.requests[0].input as {
    role?: string;
    content: { type: string; image_url?: string; text?: string }[];
  }[];
  const withImage = input.filter((m) => m.content?.some?.((p) => p.type === "input_image"));
  assert.equal(withImage.length, 1, JSON.stringify(input.map((m) => m.content)));
  assert.deepEqual(withImage[0].content, [
    { type: "input_text", text: '<attached_image path="./shot.png" type="image/png" />' },
    { type: "input_image", image_url: DATA_URL },
  ]);
  assert.equal(pasted.events.some((e) => e.type === "warning"), false);
});

Deno.test("a pasted path to a file that is not an image is a warning naming it, and the turn goes on without it", async () => {
  const run = await execWithCalls([], [], images, "see ./fake.png please");
  assert.equal(run.code, 0, run.stderr);
  const warning = run.events.find((e) => e.type === "warning");
  assert.match(
    warning?.message ?? "",
    /Cannot attach image "\.\/fake\.png": its bytes are not an image .*; not attached/,
  );
  const sent = JSON.stringify(run.requests[0].input);
  assert.doesNotMatch(sent, /input_image/);
  assert.equal(run.events.filter((e) => e.type === "turn.completed").length, 1);
});

Deno.test("@shot.png on the Chat wire: a user message with text and image_url parts", async () => {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await platform.fs.mkdir(ws);
  await images(ws);
  const server = await startFixtureModelServer({ script: { steps: [{ text: "a pixel" }] } });
  const loaded = await loadConfig(platform.fs, {
    cwd: ws,
    env: (name) => ({ ...env, OPENAI_API_KEY: "k" } as Record<string, string>)[name],
    overrides: [
      "model_provider=fixture",
      "tool_set=trellis",
      `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
      'model_providers.fixture.wire_api="chat"',
      "skills.bundled.enabled=false",
    ],
  });
  const events: TrellisEventBody[] = [];
  const session = await Session.open({
    platform,
    loaded,
    events: (e) => events.push(e),
    approver: noTtyApprover,
  });
  try {
    const result = await session.runTurn({
      prompt: "what is in @shot.png and @fake.png",
      maxSteps: 3,
      signal: new AbortController().signal,
      attachments: [{ path: "shot.png", content: "", kind: "image" }, {
        path: "fake.png",
        content: "",
        kind: "image",
      }],
    });
    assert.equal(result.status, "completed");
  } finally {
    await session.close();
    await server.close();
  }
  const messages = (server.requests[0] as { messages: { role: string; content: unknown }[] }).messages;
  const last = messages.at(-1)!;
  assert.equal(last.role, "user");
  assert.deepEqual(last.content, [
    { type: "text", text: '<attached_image path="shot.png" type="image/png" />' },
    { type: "image_url", image_url: { url: DATA_URL } },
  ]);
  const warning = events.find((e) => e.type === "warning") as { message: string } | undefined;
  assert.match(warning?.message ?? "", /Cannot attach image "fake\.png": its bytes are not an image/);
});
