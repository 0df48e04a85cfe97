import assert from "node:assert/strict";
import { mcpOverviewLines } from "../../../lib/cli/interactive/mcp_overview.ts";
import type { McpServerOverview } from "../../../lib/app/mod.ts";
import { FakeUi } from "./_fake_ui.ts";

const server = (extra: Partial<McpServerOverview>): McpServerOverview => ({
  name: "docs",
  state: "ready",
  transport: "stdio",
  origin: "trellis",
  pinning: "warn",
  tools: 4,
  offered: 4,
  withheld: [],
  changed: [],
  pinned: true,
  ...extra,
});

Deno.test("/mcp names each server's tool count, transport, origin and pin state (#21 item 6)", () => {
  const { colors } = new FakeUi();
  assert.deepStrictEqual(
    mcpOverviewLines([
      server({}),
      server({
        name: "github",
        transport: "streamable_http",
        origin: "codex",
        pinned: false,
        pinning: "block",
      }),
      server({ name: "dead", state: "failed", error: "spawn ENOENT", tools: 0, offered: 0, pinned: false }),
    ], colors),
    [
      "  docs    ready     4 tools · stdio · trellis · pinned (warn)",
      "  github  ready     4 tools · http · codex · not pinned (block)",
      "  dead    failed    stdio · trellis  spawn ENOENT",
    ],
  );
});

Deno.test("/mcp shows withheld tools as withheld, and a server with every tool withheld not as ready (#21 item 6)", () => {
  const { colors } = new FakeUi();
  const changed = [{ tool: "echo", pin: "changed" as const }, { tool: "exfiltrate", pin: "new" as const }];
  assert.deepStrictEqual(
    mcpOverviewLines([
      server({ name: "pins", tools: 3, offered: 1, withheld: changed, pinning: "block" }),
      server({ name: "all", tools: 2, offered: 0, withheld: changed, pinning: "block" }),
      // The neighbour: under warn the changed tools are offered; nothing is withheld.
      server({ name: "warned", tools: 3, offered: 3, changed }),
    ], colors),
    [
      "  pins    ready     3 tools, 2 withheld · stdio · trellis · pinned, 2 new or changed (block)",
      "    withheld: echo (changed), exfiltrate (new) · trellis mcp diff pins",
      "  all     withheld  2 tools, 2 withheld · stdio · trellis · pinned, 2 new or changed (block)",
      "    withheld: echo (changed), exfiltrate (new) · trellis mcp diff all",
      "  warned  ready     3 tools · stdio · trellis · pinned, 2 new or changed (warn)",
    ],
  );
});
