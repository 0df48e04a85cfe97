import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

// #23 item 2, apply_patch: Codex's patch format through Session and the real fixture model — a
// freeform (grammar) tool on Responses for the models Codex offers it to, a `{input}` function on
// the Messages wire; every hunk checked before anything is written.

type Body = Record<string, any>;
const signal = () => new AbortController().signal;
const peer = (file: string) =>
  JSON.parse(Deno.readTextFileSync(new URL(`../../fixtures/peers/${file}`, import.meta.url))) as Body;

async function open(script: FixtureScript, model: string, overrides: string[] = []) {
  const home = await makeSandboxHome();
  const cwd = `${home.root}/ws`;
  await platform.fs.mkdir(cwd);
  const server = await startFixtureModelServer({ script });
  const env: Record<string, string> = {
    ...home.env,
    PATH: platform.env("PATH") ?? "/usr/bin:/bin",
    SHELL: "/bin/sh",
  };
  const loaded = await loadConfig(platform.fs, {
    cwd,
    env: (name) => env[name],
    overrides: [
      "model_provider=fixture",
      `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
      `model=${model}`,
      "skills.bundled.enabled=false",
      "tool_set=auto",
      ...overrides,
    ],
  });
  const session = await Session.open({
    platform: { ...platform, env: (name) => env[name], envAll: () => ({ ...env }) },
    loaded,
    events: () => {},
    approver: noTtyApprover,
  });
  await session.start(signal());
  return {
    cwd,
    session,
    bodies: server.requests as Body[],
    turn: (prompt: string) => session.runTurn({ prompt, maxSteps: 8, signal: signal() }),
    close: async () => {
      await session.close();
      await server.close();
    },
  };
}

const read = (path: string) => Deno.readTextFileSync(path);
const exists = (path: string) => {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
};

const PATCH = [
  "*** Begin Patch",
  "*** Add File: src/new.txt",
  "+fresh",
  "+file",
  "*** Update File: keep.txt",
  "@@ fn main",
  " a",
  "-b",
  "+B",
  " c",
  "@@",
  " x",
  "-y",
  "+Y",
  "*** Delete File: gone.txt",
  "*** Update File: old.txt",
  "*** Move to: moved/new_name.txt",
  "@@",
  "-one",
  "+ONE",
  "*** End Patch",
].join("\n");

async function seed(cwd: string) {
  await Deno.writeTextFile(`${cwd}/keep.txt`, "fn main\na\nb\nc\nmiddle\nx\ny\nz\n");
  await Deno.writeTextFile(`${cwd}/gone.txt`, "bye\n");
  await Deno.writeTextFile(`${cwd}/old.txt`, "one\ntwo\n");
}

Deno.test("apply_patch: gpt-5.5 on Responses gets the freeform grammar tool as Codex declares it, and a custom_tool_call adds, updates, deletes and moves files, answered by a custom_tool_call_output (#23 item 2)", async () => {
  const s = await open({
    steps: [
      { tool_calls: [{ name: "apply_patch", custom: true, arguments: PATCH, id: "call_p1" }] },
      { text: "Patched." },
    ],
  }, "gpt-5.5");
  try {
    await seed(s.cwd);
    assert.equal((await s.turn("Patch it")).status, "completed");
    const [first, second] = s.bodies;
    const theirs = peer("codex-0.171-gpt-5.5.json").tools.find((t: Body) => t.name === "apply_patch");
    const mine = first.tools.find((t: Body) => t.name === "apply_patch");
    assert.equal(mine.type, theirs.type);
    assert.equal(mine.format.type, theirs.format.type);
    assert.equal(mine.format.syntax, theirs.format.syntax);
    assert.match(mine.format.definition, /\*\*\* Begin Patch/);
    assert.ok(!("parameters" in mine));
    assert.equal(read(`${s.cwd}/src/new.txt`), "fresh\nfile\n");
    assert.equal(read(`${s.cwd}/keep.txt`), "fn main\na\nB\nc\nmiddle\nx\nY\nz\n");
    assert.ok(!exists(`${s.cwd}/gone.txt`));
    assert.ok(!exists(`${s.cwd}/old.txt`));
    assert.equal(read(`${s.cwd}/moved/new_name.txt`), "ONE\ntwo\n");
    const call = second.input.find((i: Body) => i.type === "custom_tool_call");
    assert.deepEqual(call, {
      type: "custom_tool_call",
      call_id: "call_p1",
      name: "apply_patch",
      input: PATCH,
    });
    const out = second.input.find((i: Body) => i.type === "custom_tool_call_output");
    assert.equal(out.call_id, "call_p1");
    assert.match(
      out.output,
      /^Success\. Updated the following files:\nA src\/new\.txt\nM keep\.txt\nD gone\.txt/,
    );
    assert.ok(!second.input.some((i: Body) => i.type === "function_call_output"));
  } finally {
    await s.close();
  }
});

Deno.test("apply_patch: gpt-5 is not offered it, as Codex does not (#23 item 2)", async () => {
  const s = await open({ steps: [{ text: "hi" }] }, "gpt-5");
  try {
    await s.turn("hello");
    const names = s.bodies[0].tools.map((t: Body) => t.name);
    assert.ok(!names.includes("apply_patch"));
    assert.ok(!peer("codex-0.171-gpt-5.json").tools.some((t: Body) => t.name === "apply_patch"));
  } finally {
    await s.close();
  }
});

Deno.test("apply_patch: a hunk that does not match names the file and the hunk, and no file of the patch is written (#23 item 2, bad input)", async () => {
  const bad = PATCH.replace(" x\n-y\n+Y", " x\n-nothing-like-this\n+Y");
  const s = await open({
    steps: [
      { tool_calls: [{ name: "apply_patch", custom: true, arguments: bad }] },
      {
        tool_calls: [{
          name: "apply_patch",
          custom: true,
          arguments: "*** Begin Patch\n*** Frobnicate: a\n*** End Patch",
        }],
      },
      { text: "Gave up." },
    ],
  }, "gpt-5.5");
  try {
    await seed(s.cwd);
    assert.equal((await s.turn("Patch it")).status, "completed");
    const outputs = s.bodies.slice(1).map((b) =>
      b.input.filter((i: Body) => i.type === "custom_tool_call_output").at(-1)?.output
    );
    assert.match(outputs[0], /Cannot apply hunk 2 to "keep\.txt": its lines were not found \(first: "x"\)/);
    assert.match(outputs[1], /Line 2 \("\*\*\* Frobnicate: a"\) is not "\*\*\* Add File:"/);
    // The add before the bad hunk and the delete after it: neither happened.
    assert.ok(!exists(`${s.cwd}/src/new.txt`));
    assert.equal(read(`${s.cwd}/keep.txt`), "fn main\na\nb\nc\nmiddle\nx\ny\nz\n");
    assert.ok(exists(`${s.cwd}/gone.txt`));
    assert.ok(exists(`${s.cwd}/old.txt`));
  } finally {
    await s.close();
  }
});

Deno.test("apply_patch: a file in a protected path is refused without a terminal to ask, and the patch's other file is not written either; outside the writable roots likewise (#23 item 2)", async () => {
  const protectedPatch =
    "*** Begin Patch\n*** Add File: fine.txt\n+ok\n*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n*** End Patch";
  const outsidePatch =
    "*** Begin Patch\n*** Add File: fine.txt\n+ok\n*** Add File: /usr/trellis-escape.txt\n+out\n*** End Patch";
  const s = await open({
    steps: [
      { tool_calls: [{ name: "apply_patch", custom: true, arguments: protectedPatch }] },
      { tool_calls: [{ name: "apply_patch", custom: true, arguments: outsidePatch }] },
      { text: "Refused." },
    ],
  }, "gpt-5.5");
  try {
    await Deno.mkdir(`${s.cwd}/.git/hooks`, { recursive: true });
    assert.equal((await s.turn("Patch it")).status, "completed");
    const outputs = s.bodies.slice(1).map((b) =>
      b.input.filter((i: Body) => i.type === "custom_tool_call_output").at(-1)?.output
    );
    assert.match(outputs[0], /\.git/);
    assert.match(outputs[1], /escape\.txt/);
    assert.ok(!exists(`${s.cwd}/fine.txt`));
    assert.ok(!exists(`${s.cwd}/.git/hooks/pre-commit`));
    assert.ok(!exists("/usr/trellis-escape.txt"));
  } finally {
    await s.close();
  }
});

Deno.test("apply_patch: on the Messages wire it is a function taking {input}, and a tool_use with the patch applies it (#23 item 2, fallback)", async () => {
  const s = await open(
    {
      steps: [
        {
          tool_calls: [{
            name: "apply_patch",
            arguments: { input: "*** Begin Patch\n*** Add File: m.txt\n+messages\n*** End Patch" },
          }],
        },
        { text: "Done." },
      ],
    },
    "gpt-5.5",
    ["model_providers.fixture.wire_api=messages", "tool_set=codex"],
  );
  try {
    assert.equal((await s.turn("Patch it")).status, "completed");
    const mine = s.bodies[0].tools.find((t: Body) => t.name === "apply_patch");
    assert.deepEqual(mine.input_schema.required, ["input"]);
    assert.equal(mine.input_schema.properties.input.type, "string");
    assert.equal(read(`${s.cwd}/m.txt`), "messages\n");
  } finally {
    await s.close();
  }
});

Deno.test("apply_patch: every file a patch added, changed, deleted or moved goes to the turn's checkpoint, and rewind puts them all back (#23 item 2, #25 item 2)", async () => {
  const s = await open({
    steps: [{ tool_calls: [{ name: "apply_patch", custom: true, arguments: PATCH }] }, { text: "Patched." }],
  }, "gpt-5.5");
  try {
    await seed(s.cwd);
    assert.equal((await s.turn("Patch it")).status, "completed");
    assert.ok(exists(`${s.cwd}/moved/new_name.txt`));
    await s.session.rewind({ to: 1 });
    assert.ok(!exists(`${s.cwd}/src/new.txt`));
    assert.equal(read(`${s.cwd}/keep.txt`), "fn main\na\nb\nc\nmiddle\nx\ny\nz\n");
    assert.equal(read(`${s.cwd}/gone.txt`), "bye\n");
    assert.equal(read(`${s.cwd}/old.txt`), "one\ntwo\n");
    assert.ok(!exists(`${s.cwd}/moved/new_name.txt`));
  } finally {
    await s.close();
  }
});

Deno.test("model_providers.<id>.supports_custom_tools = false declares apply_patch as its {input} function on Responses, and that call applies (#23 item 2)", async () => {
  const patch = "*** Begin Patch\n*** Add File: plain.txt\n+via a function\n*** End Patch";
  const s = await open(
    {
      steps: [
        { tool_calls: [{ name: "apply_patch", arguments: { input: patch } }] },
        { text: "patched" },
      ],
    },
    "gpt-5.5",
    ["model_providers.fixture.supports_custom_tools=false"],
  );
  try {
    assert.equal((await s.turn("add a file")).status, "completed");
    const tool = s.bodies[0].tools.find((t: Body) => t.name === "apply_patch");
    assert.equal(tool.type, "function");
    assert.deepEqual(Object.keys(tool.parameters.properties), ["input"]);
    assert.ok(!s.bodies[0].tools.some((t: Body) => t.type === "custom"), "no freeform tool is sent");
    assert.equal(read(`${s.cwd}/plain.txt`), "via a function\n");
    const output = s.bodies[1].input.find((i: Body) => i.type === "function_call_output");
    assert.ok(output, "answered as a function call's output");
  } finally {
    await s.close();
  }
});
