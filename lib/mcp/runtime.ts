import type { Platform } from "../platform/mod.ts";
import type { EventSink, ToolDefinition } from "../shared/mod.ts";
import { DEFAULT_OUTPUT_BUDGET_BYTES } from "./call_result.ts";
import { type ResolvedCatalog, sameCatalog } from "./catalog.ts";
import { ConnectionManager } from "./connection_manager.ts";
import type { ServerConfinement } from "./client_factory.ts";
import { type ElicitationResponder, ElicitationRouter } from "./elicitation.ts";
import { listManagerTools, mcpToolDefinitions } from "./mcp_tools.ts";
import { PinWatch } from "./pin_watch.ts";
import type { ToolPins } from "./tool_pins.ts";
import { resourceToolDefinitions } from "./resource_tools.ts";
import type { ServerInstructions } from "./server_instructions.ts";
import { CredentialStore } from "./credential_store.ts";
import { storedOAuthFetch } from "./oauth_login.ts";
import { RootsState } from "./roots.ts";
import { SamplingGate, type SamplingOptions } from "./sampling.ts";
import {
  assumedWindowNotice,
  searchToolsDefinition,
  shouldDeferTools,
  type ToolSearchOptions,
} from "./tool_search.ts";

export interface McpRuntimeOptions {
  platform: Platform;
  catalog: ResolvedCatalog;
  events: EventSink;
  cwd: string;
  /** $TRELLIS_HOME, for per-server stderr logs. */
  home: string;
  elicitation: ElicitationResponder;
  /**
   * Codex approval policy; "never" declines elicitations (MCP-15), "untrusted" asks before an
   * `auto` tool. A function is read at each step and each elicitation: a session's `/approvals`.
   */
  approvalPolicy: string | (() => string);
  /** Model-facing output budget per MCP result in bytes (default 16 KiB). */
  outputBudgetBytes?: number;
  /** MCP-15 step 2: policy auto-approves MCP prompts (default false). */
  autoApproveElicitations?: boolean;
  /** The session's model for `sampling/createMessage`; absent → sampling is not offered. */
  sampling?: SamplingOptions;
  /** Workspace roots (absolute paths) answered to `roots/list`; default `[cwd]`. */
  roots?: string[];
  /** MCP-12 deferred tools; default `{ mode: "off" }`. */
  toolSearch?: ToolSearchOptions;
  /** Issue #17: pinned tool definitions to check every listing and call against. */
  pins?: ToolPins;
  /**
   * Pin a server's tools the first time a step offers them (trust on first use). Sessions do;
   * previews and inspection commands (`mcp tools`, `debug prompt`) do not write.
   */
  recordPins?: boolean;
  /** #17 item 2: builds a confined stdio server's bwrap argv; absent → confined servers are refused. */
  confine?: ServerConfinement;
}

/** One step's view of MCP: tools bound to the manager current at capture time (MCP-8). */
export interface McpStepSnapshot {
  tools: ToolDefinition[];
  /** Instructions of the servers whose tools this step offers (deferred or declared), by name. */
  instructions: ServerInstructions[];
  /** Call when the step's calls are done; the last release of a retired manager closes it. */
  release(): void;
}

export interface McpRuntime {
  /** Starts every server concurrently; returns at once. */
  start(): void;
  awaitStartup(options: { graceMs: number }): Promise<void>;
  captureStep(): McpStepSnapshot;
  /**
   * Waits for tool lists a `tools/list_changed` made stale, so the next `captureStep()` carries
   * them; call it between steps (it never changes a captured step).
   */
  awaitToolLists(): Promise<void>;
  /** Replaces the workspace roots and sends `notifications/roots/list_changed` to ready servers. */
  setRoots(roots: string[]): Promise<void>;
  refresh(catalog: ResolvedCatalog, options: { strict: boolean }): Promise<void>;
  shutdown(): Promise<void>;
  /** The published generation (for `trellis mcp` debugging commands). */
  readonly manager: ConnectionManager;
  readonly elicitation: ElicitationRouter;
  /** The pins this runtime checks against (absent: no pinning). */
  readonly pins: ToolPins | undefined;
}

export function createMcpRuntime(options: McpRuntimeOptions): McpRuntime {
  const policy = options.approvalPolicy;
  const approvalPolicy = typeof policy === "function" ? policy : () => policy;
  const router = new ElicitationRouter(options.elicitation, {
    get approvalPolicy() {
      return approvalPolicy();
    },
    autoApprove: options.autoApproveElicitations,
  }, options.events);
  const roots = new RootsState(options.roots ?? [options.cwd]);
  const managerOptions = {
    platform: options.platform,
    events: options.events,
    cwd: options.cwd,
    home: options.home,
    elicitation: router,
    roots,
    sampling: options.sampling ? new SamplingGate(options.sampling, options.events) : undefined,
    oauthFetch: storedOAuthFetch(CredentialStore.forHome(options.platform.fs, options.home)),
    pins: options.pins,
    confine: options.confine,
  };
  const pinning = options.pins
    ? new PinWatch(options.pins, options.events, options.recordPins ?? false)
    : undefined;
  const budget = options.outputBudgetBytes ?? DEFAULT_OUTPUT_BUDGET_BYTES;
  const unlocked = new Set<string>();
  let assumedWindowSaid = false;
  let catalog = options.catalog;
  // Installed before anything is awaited, so an elicitation during initialize has somewhere to go (MCP-7).
  let current = new ConnectionManager(catalog.servers, managerOptions);
  current.acquire();
  return {
    get manager() {
      return current;
    },
    elicitation: router,
    pins: options.pins,
    start: () => current.start(),
    awaitStartup: (o) => current.awaitStartup(o),
    captureStep() {
      const manager = current;
      manager.acquire();
      let released = false;
      const listing = listManagerTools(manager);
      pinning?.check(manager, listing);
      const mcpTools = mcpToolDefinitions(manager, {
        budgetBytes: budget,
        events: options.events,
        // Read when a call is judged, not when the step is captured.
        get approvalPolicy() {
          return approvalPolicy();
        },
      }, listing);
      const search = options.toolSearch ?? { mode: "off" };
      const defer = shouldDeferTools(mcpTools, search);
      if (defer && search.mode === "auto" && search.windowAssumed && !assumedWindowSaid) {
        assumedWindowSaid = true;
        options.events({ type: "notice", message: assumedWindowNotice(mcpTools, search) });
      }
      const declared = defer
        ? [
          searchToolsDefinition(mcpTools, (names) => names.forEach((n) => unlocked.add(n))),
          ...mcpTools.filter((t) => unlocked.has(t.name)),
        ]
        : mcpTools;
      const offered = new Set(mcpTools.map((t) => (t.source as { server: string }).server));
      const instructions = [...manager.servers.values()].flatMap(({ registration, connection }) => {
        const status = connection.status;
        const server = registration.config.name;
        return status.state === "ready" && status.instructions && offered.has(server)
          ? [{ server, text: status.instructions }]
          : [];
      }).sort((a, b) => a.server < b.server ? -1 : 1);
      return {
        tools: [...declared, ...resourceToolDefinitions(manager, budget)],
        instructions,
        release() {
          if (released) return;
          released = true;
          manager.release();
        },
      };
    },
    awaitToolLists: () => current.toolsSettled(),
    async setRoots(paths) {
      if (roots.set(paths)) await current.sendRootsChanged();
    },
    async refresh(next, { strict }) {
      if (sameCatalog(catalog, next)) return;
      const previous = current;
      const manager = new ConnectionManager(next.servers, managerOptions, previous);
      manager.acquire();
      manager.start();
      if (strict) {
        try {
          await manager.awaitStartup({ graceMs: 0 });
        } catch (error) {
          manager.release();
          manager.retire();
          throw error;
        }
      }
      catalog = next;
      current = manager;
      previous.release();
      previous.retire();
      if (!strict) {
        manager.awaitStartup({ graceMs: 0 }).catch((error) =>
          options.events({ type: "warning", message: `MCP refresh: ${(error as Error).message}` })
        );
      }
    },
    async shutdown() {
      current.release();
      await current.close();
      await pinning?.settled();
    },
  };
}
