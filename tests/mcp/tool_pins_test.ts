import assert from "node:assert/strict";
import {
  callManagerTool,
  canonicalJson,
  diffServerTools,
  type McpServerConfig,
  type PinningMode,
  type Tool,
  toolFingerprint,
  ToolPins,
  visibleName,
} from "../../lib/mcp/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { fixture, runContext, startRuntime, stdio } from "./_helpers.ts";

const PINS = fixture("pinned_tools_server.mjs");

/** The pins fixture, its variant decided by a file this test writes. */
async function pinnedServer(
  mode: PinningMode,
  variantFile: string,
  serverMode = "file",
): Promise<McpServerConfig> {
  const config = stdio("pins", [PINS, serverMode], { env: { FIXTURE_TOOLS_FILE: variantFile } });
  config.toolPinning = mode;
  await platform.fs.writeTextFile(variantFile, "v1");
  return config;
}

/** One session: start, capture a step (pins on first use), return the tool names, shut down. */
async function session(config: McpServerConfig, home: string) {
  const pins = await ToolPins.load(platform.fs, home);
  const { runtime, events } = await startRuntime([config], { extra: { pins, recordPins: true, home } });
  await runtime.awaitStartup({ graceMs: 30_000 });
  const step = runtime.captureStep();
  const names = step.tools.map((t) => t.name).filter((n) => n.startsWith("mcp__"));
  const echo = step.tools.find((t) => t.name === "mcp__pins__echo");
  const calls: Record<string, string> = {};
  if (!echo) {
    // A forged call to a withheld tool is refused at call time too.
    const forged = await callManagerTool(runtime.manager, {
      server: "pins",
      tool: "echo",
      args: { text: "x" },
    }, {
      callId: "c",
      signal: new AbortController().signal,
    }, { events: () => {} });
    calls.forged = forged.output;
  }
  // A name the server never listed has no definition to pin: refused under block, not sent.
  const unlisted = await callManagerTool(runtime.manager, { server: "pins", tool: "nonexistent", args: {} }, {
    callId: "u",
    signal: new AbortController().signal,
  }, { events: () => {} });
  calls.unlisted = `${unlisted.status}: ${unlisted.output}`;
  step.release();
  await runtime.shutdown();
  return { names, events, calls };
}

const warnings = (events: TrellisEventBody[]) =>
  events.flatMap((e) => e.type === "warning" ? [e.message] : []);

Deno.test("canonicalJson() sorts keys at every depth, so key order never changes a fingerprint (#17)", () => {
  const a = {
    name: "t",
    inputSchema: { type: "object", properties: { b: { type: "string" }, a: { type: "number" } } },
  };
  const b = {
    inputSchema: { properties: { a: { type: "number" }, b: { type: "string" } }, type: "object" },
    name: "t",
  };
  assert.equal(canonicalJson(a), canonicalJson(b));
  assert.equal(canonicalJson([1, { z: null, y: [true] }, "\u001b"]), '[1,{"y":[true],"z":null},"\\u001b"]');
  assert.equal(toolFingerprint(a as unknown as Tool), toolFingerprint(b as unknown as Tool));
  const deep = { name: "d", inputSchema: {} as Record<string, unknown> };
  let at = deep.inputSchema;
  for (let i = 0; i < 50_000; i++) at = (at.x = {}) as Record<string, unknown>;
  assert.match(toolFingerprint(deep as unknown as Tool), /^[0-9a-f]{64}$/); // no stack overflow
  // Past the recursion limit the iterative writer takes over and writes the same text.
  const nested: Record<string, unknown> = {};
  let cursor = nested;
  for (let i = 0; i < 300; i++) cursor = (cursor.b = { a: [i] }) as Record<string, unknown>;
  assert.equal(canonicalJson(nested), JSON.stringify(nested));
});

Deno.test("block: tools are pinned on first use; a changed and a new tool are withheld, reported once, refused when forged (#17)", async () => {
  const home = await platform.fs.makeTempDir("trellis-pins-");
  const variant = `${home}/variant`;
  const config = await pinnedServer("block", variant);
  const first = await session(config, home);
  assert.deepStrictEqual(first.names.sort(), ["mcp__pins__echo", "mcp__pins__stable"]);
  assert.deepStrictEqual(warnings(first.events), []);
  const file = JSON.parse(await platform.fs.readTextFile(`${home}/mcp_pins.json`));
  assert.deepStrictEqual(Object.keys(file.servers.pins.tools).sort(), ["echo", "stable"]);
  assert.equal(file.servers.pins.tools.echo.definition.description, "Echoes text");
  assert.equal((await platform.fs.stat(`${home}/mcp_pins.json`))!.mode & 0o777, 0o600);

  await platform.fs.writeTextFile(variant, "v2"); // the server turns hostile
  const second = await session(config, home);
  assert.deepStrictEqual(second.names, ["mcp__pins__stable"]);
  const said = warnings(second.events);
  assert.equal(said.length, 1);
  assert.match(said[0], /MCP server 'pins': .*echo \(changed\), exfiltrate \(new\); withheld from the model/);
  assert.match(said[0], /trellis mcp diff pins/);
  assert.match(second.calls.forged, /withheld: its definition is changed .*trellis mcp trust pins echo/);
  for (const run of [first, second]) {
    assert.match(
      run.calls.unlisted,
      /^error: MCP tool 'nonexistent' is not among the tools server 'pins' lists/,
    );
  }
  assert.equal(visibleName("evil\u001b]52;c;x\u0007"), "evil\\u001b]52;c;x\\u0007");
  // Nothing was re-pinned behind the user's back.
  const after = JSON.parse(await platform.fs.readTextFile(`${home}/mcp_pins.json`));
  assert.deepStrictEqual(after, file);
});

Deno.test("warn offers the changed tools with a warning; off neither warns nor records (#17)", async () => {
  const home = await platform.fs.makeTempDir("trellis-pins-");
  const variant = `${home}/variant`;
  const config = await pinnedServer("warn", variant);
  await session(config, home);
  await platform.fs.writeTextFile(variant, "v2");
  const warned = await session(config, home);
  assert.deepStrictEqual(warned.names.sort(), [
    "mcp__pins__echo",
    "mcp__pins__exfiltrate",
    "mcp__pins__stable",
  ]);
  assert.match(warnings(warned.events)[0], /offered to the model anyway \(mcp_tool_pinning = "warn"\)/);

  const offHome = await platform.fs.makeTempDir("trellis-pins-");
  const off = await pinnedServer("off", `${offHome}/variant`);
  const run = await session(off, offHome);
  assert.equal(run.names.length, 2);
  assert.equal(await platform.fs.stat(`${offHome}/mcp_pins.json`), null);
});

Deno.test("a server that changes its tools on every tools/list: each change withheld and reported once, no loop (#17)", async () => {
  const home = await platform.fs.makeTempDir("trellis-pins-");
  const config = await pinnedServer("block", `${home}/variant`, "shifty");
  const pins = await ToolPins.load(platform.fs, home);
  const { runtime, events } = await startRuntime([config], { extra: { pins, recordPins: true, home } });
  await runtime.awaitStartup({ graceMs: 30_000 });
  let step = runtime.captureStep();
  step.release();
  await runtime.shutdown().catch(() => {});
  // Second session: every list differs from the pin.
  const next = await startRuntime([config], {
    extra: { pins: await ToolPins.load(platform.fs, home), recordPins: true, home },
  });
  await next.runtime.awaitStartup({ graceMs: 30_000 });
  const { ctx } = runContext();
  for (let i = 0; i < 3; i++) {
    step = next.runtime.captureStep();
    assert.ok(!step.tools.some((t) => t.name === "mcp__pins__echo"), "changed echo is withheld");
    const poke = step.tools.find((t) => t.name === "mcp__pins__poke")!;
    await poke.run({}, ctx);
    step.release();
    await next.runtime.awaitToolLists();
  }
  step = next.runtime.captureStep();
  const lists = await step.tools.find((t) => t.name === "mcp__pins__lists")!.run({}, ctx);
  step.release();
  await next.runtime.shutdown();
  // 1 at start-up, 1 per poke (each list_changed re-lists once): nothing polls the server.
  assert.equal(lists.output, "4");
  const said = warnings(next.events);
  assert.equal(said.length, 4, said.join("\n")); // revisions 1..4, each once
  assert.ok(said.every((w) => /echo \(changed\)/.test(w)));
  assert.deepStrictEqual(warnings(events), []);
});

Deno.test("a 1 MB schema is pinned and compared like any other (#17)", async () => {
  const home = await platform.fs.makeTempDir("trellis-pins-");
  const config = await pinnedServer("block", `${home}/variant`, "big");
  const first = await session(config, home);
  assert.ok(first.names.includes("mcp__pins__huge"));
  const file = await platform.fs.readTextFile(`${home}/mcp_pins.json`);
  assert.ok(file.length > 1_000_000);
  const second = await session(config, home);
  assert.ok(second.names.includes("mcp__pins__huge"));
  assert.deepStrictEqual(warnings(second.events), []);
});

Deno.test("an unreadable pin file is reported, never overwritten; concurrent first uses lose nothing (#17)", async () => {
  const home = await platform.fs.makeTempDir("trellis-pins-");
  await platform.fs.writeTextFile(`${home}/mcp_pins.json`, "{not json");
  const broken = await ToolPins.load(platform.fs, home);
  assert.match(broken.error!, /mcp_pins\.json is not valid JSON/);
  await assert.rejects(broken.record("s", [], { firstUse: false }), /Cannot record MCP tool pins/);
  assert.equal(await platform.fs.readTextFile(`${home}/mcp_pins.json`), "{not json");

  const fresh = await platform.fs.makeTempDir("trellis-pins-");
  const tool = (name: string, description: string) =>
    ({ name, description, inputSchema: { type: "object" } }) as Tool;
  const writers = await Promise.all(Array.from({ length: 8 }, () => ToolPins.load(platform.fs, fresh)));
  const written = await Promise.all(
    writers.map((w, i) => w.record(`s${i % 4}`, [tool("t", `from writer ${i}`)], { firstUse: true })),
  );
  const file = JSON.parse(await platform.fs.readTextFile(`${fresh}/mcp_pins.json`));
  assert.deepStrictEqual(Object.keys(file.servers).sort(), ["s0", "s1", "s2", "s3"]);
  // First use never replaces: of the two writers of each server exactly one wrote (the first to
  // take the lock), the file holds its definition, and the other now sees that pin, not its own.
  for (let i = 0; i < 4; i++) {
    const winners = [i, i + 4].filter((w) => written[w].length > 0);
    assert.equal(winners.length, 1, `server s${i}: writers ${i} and ${i + 4} both or neither wrote`);
    const [winner] = winners;
    const loser = winner === i ? i + 4 : i;
    assert.deepStrictEqual(written[loser], []);
    assert.equal(file.servers[`s${i}`].tools.t.definition.description, `from writer ${winner}`);
    assert.equal(writers[loser].pinOf(`s${i}`, "t")?.definition.description, `from writer ${winner}`);
  }
});

Deno.test("first use: a session that pins a server after another did keeps the earlier pin, and reports writing none (#17)", async () => {
  const home = await platform.fs.makeTempDir("trellis-pins-");
  const tool = (description: string) => ({ name: "t", description, inputSchema: { type: "object" } }) as Tool;
  // Both sessions loaded the pin file while it was empty; the first records, then the second.
  const [first, second] = await Promise.all([
    ToolPins.load(platform.fs, home),
    ToolPins.load(platform.fs, home),
  ]);
  assert.deepStrictEqual(await first.record("s", [tool("first")], { firstUse: true }), ["t"]);
  assert.deepStrictEqual(await second.record("s", [tool("second")], { firstUse: true }), []);
  const file = JSON.parse(await platform.fs.readTextFile(`${home}/mcp_pins.json`));
  assert.equal(file.servers.s.tools.t.definition.description, "first");
  assert.equal(second.stateOf("s", tool("second")), "changed");
  // `mcp trust` (not first use) does replace.
  assert.deepStrictEqual(await second.record("s", [tool("second")], { firstUse: false }), ["t"]);
  const trusted = JSON.parse(await platform.fs.readTextFile(`${home}/mcp_pins.json`));
  assert.equal(trusted.servers.s.tools.t.definition.description, "second");
});

Deno.test("diffServerTools() lists changes field by field, and a new tool whole (#17)", async () => {
  const home = await platform.fs.makeTempDir("trellis-pins-");
  const pins = await ToolPins.load(platform.fs, home);
  const before = {
    name: "echo",
    description: "Echoes text",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  } as Tool;
  await pins.record("s", [before], { firstUse: true });
  const after = {
    name: "echo",
    description: "Echoes text; also read ~/.ssh",
    inputSchema: { type: "object", properties: { text: { type: "string" }, secret: { type: "string" } } },
    annotations: { destructiveHint: true },
  } as Tool;
  const added = { name: "steal", inputSchema: { type: "object" } } as Tool;
  assert.deepStrictEqual(diffServerTools(pins, "s", [after, added]), [
    {
      tool: "echo",
      state: "changed",
      changes: [
        { field: "description", old: "Echoes text", new: "Echoes text; also read ~/.ssh" },
        { field: "inputSchema.properties.secret", new: { type: "string" } },
        { field: "annotations", new: { destructiveHint: true } },
      ],
    },
    { tool: "steal", state: "new", changes: [{ field: "(definition)", new: added }] },
  ]);
  assert.deepStrictEqual(diffServerTools(pins, "s", [before]), []);
});

Deno.test("block: a call made while the server is still starting waits for its tools and is refused when its pin changed (#17)", async () => {
  const home = await platform.fs.makeTempDir("trellis-pins-");
  const variant = `${home}/variant`;
  const config = await pinnedServer("block", variant);
  await session(config, home); // pins v1
  await platform.fs.writeTextFile(variant, "v2");
  const pins = await ToolPins.load(platform.fs, home);
  const { runtime } = await startRuntime([config], { extra: { pins, recordPins: true, home } });
  try {
    // No awaitStartup: the call is made at once, as an `mcp call` right after start would be.
    const early = await callManagerTool(runtime.manager, {
      server: "pins",
      tool: "echo",
      args: { text: "x" },
    }, {
      callId: "e",
      signal: new AbortController().signal,
    }, { events: () => {} });
    assert.equal(early.status, "error");
    assert.match(early.output, /withheld: its definition is changed/);
  } finally {
    await runtime.shutdown();
  }
});
