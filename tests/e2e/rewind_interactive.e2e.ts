/**
 * #25 item 2 through a real terminal: `/rewind` lists the session's turns newest first, then
 * restores files, the conversation, or both — trellis in tmux against the real fixture model.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { e2eSetup } from "./_setup.ts";
import { TmuxTerminal } from "./_tmux.ts";

const PROMPT = /^›$/m;

Deno.test("interactive /rewind: pick turn 2, restore files and conversation; the next request has turn 1's history only", async () => {
  const s = await e2eSetup();
  await Deno.mkdir(`${s.workspace}/.git`);
  await Deno.writeTextFile(`${s.workspace}/notes.txt`, "original\n");
  const server = await startFixtureModelServer({
    script: [
      { tool_calls: [{ name: "write_file", arguments: { path: "notes.txt", content: "first edit\n" } }] },
      { text: "Turn one done." },
      { tool_calls: [{ name: "write_file", arguments: { path: "notes.txt", content: "second edit\n" } }] },
      { text: "Turn two done." },
      { text: "Fresh answer." },
    ],
  });
  const t = await TmuxTerminal.start({ cwd: s.workspace, env: s.env, args: s.flags(server.url) });
  try {
    await t.waitFor(PROMPT);
    await t.typeLine("alpha prompt");
    await t.waitFor(/Turn one done\./);
    await t.typeLine("beta prompt");
    await t.waitFor(/Turn two done\./);
    assert.equal(await Deno.readTextFile(`${s.workspace}/notes.txt`), "second edit\n");
    await t.typeLine("/rewind");
    const list = await t.waitFor(/Rewind to before which turn\?/);
    // Newest first: turn 2 is the one the cursor is on.
    assert.match(list, /2 {2}beta prompt {2}\(1 file\)[\s\S]*1 {2}alpha prompt {2}\(1 file\)/);
    await t.press("Enter");
    await t.waitFor(/Rewind to before turn 2:/);
    await t.type("b");
    const done = await t.waitFor(/conversation cut to before turn 2/);
    assert.match(done, /restored .*notes\.txt/);
    assert.match(done, /its prompt was: beta prompt/);
    assert.equal(await Deno.readTextFile(`${s.workspace}/notes.txt`), "first edit\n");
    await t.waitFor(PROMPT);
    await t.typeLine("gamma prompt");
    await t.waitFor(/Fresh answer\./);
    const last = JSON.stringify(server.requests.at(-1));
    assert.match(last, /alpha prompt/);
    assert.doesNotMatch(last, /beta prompt/);
    assert.match(last, /gamma prompt/);
    // The files-only neighbour: rewinding files to turn 1 keeps the conversation.
    await t.typeLine("/rewind 1");
    await t.waitFor(/Rewind to before turn 1:/);
    await t.type("f");
    await t.waitFor(/Rewound session .* to before turn 1:\n\s+restored .*notes\.txt/);
    assert.equal(await Deno.readTextFile(`${s.workspace}/notes.txt`), "original\n");
  } finally {
    await t.close();
    await server.close();
  }
});
