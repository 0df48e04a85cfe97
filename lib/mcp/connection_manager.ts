import type { Platform } from "../platform/mod.ts";
import { type EventSink, UsageError } from "../shared/mod.ts";
import type { McpRegistration } from "./catalog.ts";
import type { ElicitationRouter } from "./elicitation.ts";
import type { FetchLike } from "./_sdk.ts";
import type { ServerConfinement } from "./client_factory.ts";
import type { RootsState } from "./roots.ts";
import type { McpServerConfig } from "./server_config.ts";
import type { SamplingGate } from "./sampling.ts";
import { connectionIdentity } from "./server_config.ts";
import { ServerConnection, type SettledStatus } from "./server_connection.ts";
import type { ToolPins } from "./tool_pins.ts";
import { recordLastStart } from "./last_start.ts";

export interface ManagerOptions {
  platform: Platform;
  events: EventSink;
  cwd: string;
  home: string;
  elicitation: ElicitationRouter;
  roots: RootsState;
  /** Absent: the session cannot sample; servers are not offered the capability. */
  sampling?: SamplingGate;
  /** MCP-17: fetch for OAuth-protected streamable-HTTP servers. */
  oauthFetch?: (server: McpServerConfig) => Promise<FetchLike | undefined>;
  /** Issue #17: pinned tool definitions; absent → no pin checks. */
  pins?: ToolPins;
  /** #17 item 2: builds a confined server's bwrap argv; absent → confined servers are refused. */
  confine?: ServerConfinement;
}

export interface ManagedServer {
  registration: McpRegistration;
  connection: ServerConnection;
}

/**
 * One generation of connections (MCP-6/7/8). Starts every server concurrently, reports each status
 * and a startup summary, and closes only when retired and its last holder has released it.
 * Connections with an equal identity are taken over from the previous generation, not restarted.
 */
export class ConnectionManager {
  readonly servers: ReadonlyMap<string, ManagedServer>;
  #holders = 0;
  #retired = false;
  /**
   * A refresh put a new generation in this one's place: its statuses are no longer news. A
   * generation closed at shutdown still reports, so every server's status ends (#21 item 16).
   */
  #replaced = false;
  #closed: Promise<void> | undefined;
  /** Last-start records being written; closing waits for them, so a short command leaves them. */
  #records: Promise<void>[] = [];

  constructor(
    registrations: readonly McpRegistration[],
    private readonly options: ManagerOptions,
    previous?: ConnectionManager,
  ) {
    const servers = new Map<string, ManagedServer>();
    for (const registration of registrations) {
      const config = registration.config;
      const identity = connectionIdentity(config, options.cwd);
      const reused = previous?.servers.get(config.name)?.connection;
      const connection = reused && reused.identity === identity && reused.status.state !== "failed" &&
          reused.status.state !== "cancelled"
        ? reused
        : this.#newConnection(registration, identity);
      connection.acquire();
      servers.set(config.name, { registration, connection });
    }
    this.servers = servers;
  }

  /** The pins every listing and call of this generation is checked against. */
  get pins(): ToolPins | undefined {
    return this.options.pins;
  }

  #newConnection(registration: McpRegistration, identity: string): ServerConnection {
    const { platform, cwd, home, events, elicitation, roots, sampling } = this.options;
    const server = registration.config.name;
    const config = registration.config;
    return new ServerConnection(registration.config, identity, {
      platform,
      cwd,
      home,
      warn: (message) =>
        events({ type: "warning", message: `MCP server '${server}': ${message}`, subject: server }),
      elicit: (request, signal) => elicitation.request(request, signal),
      sample: sampling ? (request, signal) => sampling.decide(config, request, signal) : undefined,
      roots: () => roots.roots,
      oauthFetch: this.options.oauthFetch,
      confine: this.options.confine,
    }, (status) => this.#report(server, status));
  }

  /** How each start ended is remembered for `mcp list` (#21 item 14); a cancelled start says nothing. */
  #rememberStart(connection: ServerConnection): void {
    const { platform, home } = this.options;
    this.#records.push(connection.settled.then((status) => {
      if (status.state === "cancelled") return;
      const failure = status.state === "failed"
        ? { at: new Date().toISOString(), error: status.error }
        : null;
      return recordLastStart(platform.fs, home, connection.config.name, failure);
    }));
  }

  #report(server: string, status: SettledStatus): void {
    if (this.#replaced) return;
    this.options.events({
      type: "mcp.server_status",
      server,
      status: status.state,
      ...(status.state === "failed" ? { error: status.error } : {}),
      ...(status.state === "ready" || status.state === "failed" ? { duration_ms: status.durationMs } : {}),
    });
  }

  /** Starts the servers not started yet, without waiting for any of them. */
  start(): void {
    for (const { connection } of this.servers.values()) {
      if (connection.start()) {
        this.#rememberStart(connection);
        this.options.events({
          type: "mcp.server_status",
          server: connection.config.name,
          status: "starting",
        });
      }
    }
    void Promise.all([...this.servers.values()].map((s) => s.connection.settled)).then(() => this.#summary());
  }

  #summary(): void {
    if (this.#replaced) return;
    const all = [...this.servers.values()].map((s) => ({
      server: s.registration.config.name,
      status: s.connection.status,
    }));
    this.options.events({
      type: "mcp.startup_complete",
      ready: all.filter((s) => s.status.state === "ready").map((s) => s.server),
      failed: all.flatMap((s) =>
        s.status.state === "failed" ? [{ server: s.server, error: s.status.error }] : []
      ),
      cancelled: all.filter((s) => s.status.state === "cancelled").map((s) => s.server),
    });
  }

  /**
   * MCP-7: waits for every required server (a UsageError names each that failed) and for the
   * optional ones at most `graceMs`.
   */
  async awaitStartup(options: { graceMs: number }): Promise<void> {
    const entries = [...this.servers.values()];
    const required = entries.filter((s) => s.registration.config.required);
    const optional = entries.filter((s) => !s.registration.config.required);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => timer = setTimeout(resolve, options.graceMs));
    await Promise.all([
      Promise.all(required.map((s) => s.connection.settled)),
      Promise.race([Promise.all(optional.map((s) => s.connection.settled)), grace]),
    ]).finally(() => clearTimeout(timer));
    const failed = required.flatMap((s) => {
      const status = s.connection.status;
      return status.state === "ready" ? [] : [{
        server: s.registration.config.name,
        error: status.state === "failed" ? status.error : status.state,
      }];
    });
    if (failed.length > 0) {
      throw new UsageError(
        `Cannot start required MCP server${failed.length > 1 ? "s" : ""} ${
          failed.map((f) => `"${f.server}" (${f.error})`).join(", ")
        }`,
        { server: failed.map((f) => f.server).join(","), failed },
        "mcp_required_failed",
      );
    }
  }

  /** Resolves once every server's pending tools/list_changed refresh is done. */
  async toolsSettled(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.connection.toolsSettled()));
  }

  /** Tells every ready server the roots changed. */
  async sendRootsChanged(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.connection.sendRootsChanged()));
  }

  acquire(): void {
    this.#holders++;
  }

  release(): void {
    this.#holders--;
    if (this.#retired && this.#holders <= 0) void this.close();
  }

  /** No new holders will come: close once the last one releases (or now, if none). */
  retire(): void {
    this.#retired = true;
    this.#replaced = true;
    if (this.#holders <= 0) void this.close();
  }

  get closed(): Promise<void> | undefined {
    return this.#closed;
  }

  /** Releases every connection; ones the next generation reused stay open. */
  close(): Promise<void> {
    this.#retired = true;
    this.#closed ??= Promise.all([...this.servers.values()].map((s) => s.connection.release()))
      .then(() => Promise.all(this.#records)).then(() => {});
    return this.#closed;
  }
}
