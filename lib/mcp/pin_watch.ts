import type { EventSink } from "../shared/mod.ts";
import type { ConnectionManager } from "./connection_manager.ts";
import type { McpToolListing } from "./mcp_tools.ts";
import { pinningMode, pinWarning } from "./tool_pin_policy.ts";
import type { PinState, ToolPins } from "./tool_pins.ts";

/**
 * What a session does with pins at each step (issue #17): it pins a server's tools the first time
 * a step offers them, and says once which definitions differ from their pins. "Once" is per
 * definition: a server that changes its list on every `tools/list` gets each new definition
 * reported one time, and nothing here ever asks the server for its list again.
 */
export class PinWatch {
  #reported = new Set<string>();
  #recording = new Set<string>();
  #writes: Promise<void>[] = [];

  constructor(
    private readonly pins: ToolPins,
    private readonly events: EventSink,
    private readonly record: boolean,
  ) {}

  check(manager: ConnectionManager, listing: McpToolListing[]): void {
    const fresh = new Map<string, { tool: string; state: PinState }[]>();
    for (const t of listing) {
      if (t.pin !== "new" && t.pin !== "changed") continue;
      const config = manager.servers.get(t.server)!.registration.config;
      if (pinningMode(config) === "off") continue;
      const key = `${t.server}\0${t.tool}\0${t.sha256}`;
      if (this.#reported.has(key)) continue;
      this.#reported.add(key);
      fresh.set(t.server, [...(fresh.get(t.server) ?? []), { tool: t.tool, state: t.pin }]);
    }
    for (const [server, tools] of fresh) {
      const mode = pinningMode(manager.servers.get(server)!.registration.config);
      this.events({ type: "warning", message: pinWarning(server, mode, tools), subject: server });
    }
    if (this.record) this.#pinFirstUse(manager);
  }

  #pinFirstUse(manager: ConnectionManager): void {
    for (const [name, managed] of manager.servers) {
      const status = managed.connection.status;
      if (status.state !== "ready" || status.tools.length === 0) continue;
      if (this.pins.error || this.pins.hasServer(name) || this.#recording.has(name)) continue;
      if (pinningMode(managed.registration.config) === "off") continue;
      this.#recording.add(name);
      this.#writes.push(
        this.pins.record(name, status.tools, { firstUse: true }).then(() => {}, (error) =>
          this.events({
            type: "warning",
            message: `MCP server '${name}': cannot pin its tools: ${(error as Error).message}`,
            subject: name,
          })),
      );
    }
  }

  /** Resolves once every pin write started so far is done. */
  async settled(): Promise<void> {
    await Promise.all(this.#writes);
  }
}
