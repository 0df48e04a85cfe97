import type { LoadedConfig } from "../../config/mod.ts";
import {
  createMcpRuntime,
  type McpRegistration,
  noUiElicitationResponder,
  type ResolvedCatalog,
} from "../../mcp/mod.ts";
import type { Platform } from "../../platform/mod.ts";
import { noTtyApprover } from "../../loop/mod.ts";
import { loadToolPins, mcpRuntimeOptions } from "../mcp_wiring.ts";
import { type DoctorRow, row } from "./rows.ts";
import { TrellisError } from "../../shared/mod.ts";

/** A stream that fails every request: doctor never samples (servers asking for it are declined). */
const NO_MODEL = {
  // deno-lint-ignore require-yield
  stream: async function* () {
    throw new TrellisError("internal", "trellis doctor does not answer sampling requests", {
      field: "sampling",
    });
  },
};

/**
 * Starts every enabled server of the resolved catalog at once, as a session would (same runtime
 * options), each given at most `timeoutMs` to start and list its tools, then one row per server:
 * its tool count, or why it failed and how to find out more. Nothing is pinned or recorded.
 */
export async function mcpRows(
  platform: Platform,
  loaded: LoadedConfig,
  catalog: ResolvedCatalog,
  timeoutMs: number,
): Promise<DoctorRow[]> {
  const rows: DoctorRow[] = [];
  for (const failed of catalog.failed ?? []) {
    rows.push(
      row("fail", `mcp ${failed.name}`, failed.error, `fix [mcp_servers.${failed.name}] in ${failed.source}`),
    );
  }
  for (const r of catalog.disabled) rows.push(row("skip", `mcp ${r.config.name}`, `disabled (${r.source})`));
  if (catalog.servers.length === 0) return rows;
  // Capped and made optional: one slow or required server must neither hold doctor up nor end it.
  const servers: McpRegistration[] = catalog.servers.map((r) => ({
    ...r,
    config: {
      ...r.config,
      required: false,
      startupTimeoutMs: Math.min(r.config.startupTimeoutMs, timeoutMs),
    },
  }));
  const events = () => {};
  const pins = await loadToolPins(platform, loaded.paths.home, events);
  const runtime = createMcpRuntime(mcpRuntimeOptions(
    {
      platform,
      loaded,
      events,
      elicitation: noUiElicitationResponder,
      model: NO_MODEL,
      approver: noTtyApprover,
      preview: true,
    },
    { ...catalog, servers },
    pins,
  ));
  runtime.start();
  try {
    await runtime.awaitStartup({ graceMs: timeoutMs }).catch(() => {});
    for (const r of servers) {
      const name = r.config.name;
      const status = runtime.manager.servers.get(name)?.connection.status ?? { state: "starting" as const };
      const check = `mcp ${name}`;
      if (status.state === "ready") {
        rows.push(
          row("ok", check, `started in ${status.durationMs} ms, ${status.tools.length} tools (${r.source})`),
        );
      } else if (status.state === "failed") {
        rows.push(row("fail", check, `${status.error} (${r.source})`, mcpFix(name, r)));
      } else {
        rows.push(
          row("fail", check, `did not start within ${timeoutMs / 1000} s (${r.source})`, mcpFix(name, r)),
        );
      }
    }
  } finally {
    await runtime.shutdown();
  }
  return rows;
}

function mcpFix(name: string, r: McpRegistration): string {
  if (!r.plugin && r.origin && r.origin !== "trellis") {
    // Codex's or Claude Code's file (or a project's .mcp.json): Trellis does not edit it (#21 item 9).
    return `run \`trellis mcp tools ${name}\` to see its error and stderr log; fix it in ${r.source}, ` +
      `or switch it off for Trellis only with \`trellis mcp disable ${name}\``;
  }
  const table = r.plugin
    ? `[plugins."${r.plugin.id}".mcp_servers.${name}] in config.toml`
    : `[mcp_servers.${name}] of ${r.source}`;
  return `run \`trellis mcp tools ${name}\` to see its error and stderr log; fix it, or disable it ` +
    `with enabled = false in ${table}`;
}
