import { terminalText } from "../../shared/mod.ts";
import type { McpServerOverview } from "../../app/mod.ts";
import type { Palette } from "./style.ts";

const TRANSPORT: Record<McpServerOverview["transport"], string> = {
  stdio: "stdio",
  streamable_http: "http",
  sse: "sse",
};

/**
 * `/mcp` (#21 item 6): one line a server — state, tool count, transport, origin, pin state — and
 * a second line naming the tools pinning withholds. A ready server whose tools are all withheld
 * reads `withheld`, not `ready`: the model has none of them.
 */
export function mcpOverviewLines(servers: McpServerOverview[], c: Palette): string[] {
  const safe = (text: string) => terminalText(text, { lineBreaks: "show" });
  const width = Math.max(...servers.map((s) => safe(s.name).length));
  return servers.flatMap((s) => {
    const allWithheld = s.state === "ready" && s.tools > 0 && s.withheld.length === s.tools;
    const state = allWithheld ? "withheld" : s.state;
    const paint = state === "ready" ? c.green : state === "failed" ? c.red : c.yellow;
    const facts = [
      ...(s.state === "ready" ? [toolCount(s)] : []),
      TRANSPORT[s.transport],
      s.plugin ? `plugin ${safe(s.plugin)}` : s.origin,
      ...(s.state === "ready" ? [pinText(s)] : []),
    ];
    const head = `  ${safe(s.name).padEnd(width)}  ${paint(state.padEnd(8))}  ${c.dim(facts.join(" · "))}`;
    const lines = [s.error ? `${head}  ${c.red(safe(s.error))}` : head];
    if (s.withheld.length > 0) {
      lines.push(
        `    ${c.yellow("withheld:")} ${s.withheld.map((w) => `${safe(w.tool)} (${w.pin})`).join(", ")}` +
          c.dim(` · trellis mcp diff ${safe(s.name)}`),
      );
    }
    return lines;
  });
}

function toolCount(s: McpServerOverview): string {
  const tools = `${s.tools} tool${s.tools === 1 ? "" : "s"}`;
  const notOffered = s.tools - s.offered - s.withheld.length;
  return [
    tools,
    ...(s.withheld.length ? [`${s.withheld.length} withheld`] : []),
    ...(notOffered > 0 ? [`${notOffered} filtered`] : []),
  ].join(", ");
}

function pinText(s: McpServerOverview): string {
  if (s.pinning === "off") return "pinning off";
  if (!s.pinned) return `not pinned (${s.pinning})`;
  const differ = s.withheld.length + s.changed.length;
  if (differ) return `pinned, ${differ} new or changed (${s.pinning})`;
  return `pinned (${s.pinning})`;
}
