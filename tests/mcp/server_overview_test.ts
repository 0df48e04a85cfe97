import assert from "node:assert/strict";
import { type McpServerConfig, mcpServerOverview, type PinningMode, ToolPins } from "../../lib/mcp/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { fixture, startRuntime, stdio } from "./_helpers.ts";

const PINS = fixture("pinned_tools_server.mjs");

/** One session of the pins fixture: start, one step (pins on first use), the overview, shut down. */
async function overviewOf(config: McpServerConfig, home: string) {
  const pins = await ToolPins.load(platform.fs, home);
  const { runtime } = await startRuntime([config], { extra: { pins, recordPins: true, home } });
  await runtime.awaitStartup({ graceMs: 30_000 });
  runtime.captureStep().release();
  const overview = mcpServerOverview(runtime.manager);
  await runtime.shutdown();
  return overview;
}

async function pinned(mode: PinningMode) {
  const home = await platform.fs.makeTempDir("trellis-overview-");
  const variant = `${home}/variant`;
  await platform.fs.writeTextFile(variant, "v1");
  const config = stdio("pins", [PINS, "file"], { env: { FIXTURE_TOOLS_FILE: variant } });
  config.toolPinning = mode;
  const first = await overviewOf(config, home);
  await platform.fs.writeTextFile(variant, "v2"); // echo changes, exfiltrate appears
  const second = await overviewOf(config, home);
  return { first, second };
}

Deno.test("mcpServerOverview() gives /mcp each server's tool count, transport, origin and the tools pinning withholds (#21 item 6)", async () => {
  const { first, second } = await pinned("block");
  // Pins are written on first use while this runs: whether they are yet is no part of the check.
  assert.deepStrictEqual(first.map(({ pinned: _, ...rest }) => rest), [{
    name: "pins",
    state: "ready",
    transport: "stdio",
    origin: "trellis",
    pinning: "block",
    tools: 2,
    offered: 2,
    withheld: [],
    changed: [],
  }]);
  assert.deepStrictEqual(
    second.map((s) => [s.tools, s.offered, s.pinned, s.withheld, s.changed]),
    [[3, 1, true, [{ tool: "echo", pin: "changed" }, { tool: "exfiltrate", pin: "new" }], []]],
  );
});

Deno.test("mcpServerOverview() under warn offers the changed tools and says they changed; none is withheld (#21 item 6)", async () => {
  const { second } = await pinned("warn");
  assert.deepStrictEqual(
    second.map((s) => [s.tools, s.offered, s.withheld, s.changed]),
    [[3, 3, [], [{ tool: "echo", pin: "changed" }, { tool: "exfiltrate", pin: "new" }]]],
  );
});
