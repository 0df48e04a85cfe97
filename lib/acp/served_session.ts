import * as acp from "@agentclientprotocol/sdk";
import { describeError, type EventSink } from "../shared/mod.ts";
import type { AcpEditor, AcpHost, AcpMcpServer, AcpPermissionAsk, AcpSession } from "./host.ts";
import { replayUpdates } from "./history_replay.ts";
import { promptInput } from "./prompt_blocks.ts";
import { SessionUpdates } from "./session_updates.ts";

export interface ServedSessionOptions {
  host: AcpHost;
  client: () => acp.AgentContext;
  cwd: string;
  mcpServers: AcpMcpServer[];
  resume?: string;
  /** The client's files and terminal for this session, when it offers them. */
  editor(sessionId: () => string, updates: SessionUpdates): AcpEditor;
  log(line: string): void;
}

/**
 * One ACP session: the host's session, its events as `session/update`s in order, its approvals as
 * `session/request_permission`, and the one turn that may run at a time.
 */
export class ServedSession {
  #session!: AcpSession;
  #updates: SessionUpdates;
  /** Notifications go out in event order; each waits for the one before. */
  #sent: Promise<void> = Promise.resolve();
  #turn: { controller: AbortController; done: Promise<unknown> } | null = null;
  #closed = false;

  private constructor(private readonly options: ServedSessionOptions) {
    this.#updates = new SessionUpdates(options.cwd);
  }

  static async open(options: ServedSessionOptions): Promise<ServedSession> {
    if (!options.cwd.startsWith("/")) {
      throw acp.RequestError.invalidParams(
        { cwd: options.cwd },
        `cwd "${options.cwd}" is not an absolute path`,
      );
    }
    const served = new ServedSession(options);
    let id = options.resume ?? "";
    served.#session = await options.host.openSession({
      cwd: options.cwd,
      mcpServers: options.mcpServers,
      ...(options.resume ? { resume: options.resume } : {}),
      events: served.#events,
      askPermission: (ask) => served.#askPermission(ask),
      editor: options.editor(() => id, served.#updates),
    });
    id = served.#session.id;
    return served;
  }

  get id(): string {
    return this.#session.id;
  }

  modeState(): acp.SessionModeState {
    const modes = this.#session.modes();
    return { currentModeId: modes.current, availableModes: modes.available };
  }

  configOptions(): acp.SessionConfigOption[] {
    const modes = this.#session.modes();
    const models = this.#session.models();
    const available = models.available.includes(models.current)
      ? models.available
      : [models.current, ...models.available];
    return [
      {
        id: "mode",
        name: "Approvals",
        category: "mode",
        type: "select",
        currentValue: modes.current,
        options: modes.available.map((m) => ({ value: m.id, name: m.name, description: m.description })),
      },
      {
        id: "model",
        name: "Model",
        category: "model",
        type: "select",
        currentValue: models.current,
        options: available.map((m) => ({ value: m, name: m })),
      },
    ];
  }

  /** `available_commands_update`: slash commands, skills and plugin commands. */
  announceCommands(): void {
    void this.#session.commands().then((commands) =>
      this.#send({
        sessionUpdate: "available_commands_update",
        availableCommands: commands.map((c) => ({
          name: c.name,
          description: c.description,
          ...(c.hint ? { input: { hint: c.hint } } : {}),
        })),
      })
    ).catch((error) => this.options.log(`trellis acp: cannot list commands: ${describeError(error)}\n`));
  }

  /** `session/load`: the recorded conversation as updates, before the response. */
  async replayHistory(): Promise<void> {
    for (const update of replayUpdates(this.#session.history())) this.#send(update);
    await this.#sent;
  }

  async prompt(blocks: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    if (this.#closed) throw acp.RequestError.invalidRequest(undefined, `Session "${this.id}" is closed`);
    if (this.#turn) {
      throw acp.RequestError.invalidRequest(
        { sessionId: this.id },
        `Session "${this.id}" is already running a prompt: wait for its response or send session/cancel`,
      );
    }
    const input = promptInput(blocks);
    if ("refused" in input) throw acp.RequestError.invalidParams(undefined, input.refused);
    const controller = new AbortController();
    const running = this.#session.prompt(input, controller.signal);
    this.#turn = { controller, done: running.catch(() => {}) };
    try {
      const end = await running;
      // Every update of the turn reaches the client before the response that ends it.
      await this.#sent;
      if (end.stopReason === "failed") {
        throw new acp.RequestError(-32603, end.message, { code: end.code });
      }
      return { stopReason: end.stopReason };
    } finally {
      this.#turn = null;
    }
  }

  /** `session/cancel`: the running turn stops; its prompt answers `cancelled`. */
  cancel(): void {
    this.#turn?.controller.abort();
  }

  async setMode(id: string): Promise<void> {
    this.#session.setMode(id);
    this.#send({ sessionUpdate: "current_mode_update", currentModeId: id });
    await this.#sent;
  }

  async setConfigOption(configId: string, value: string): Promise<void> {
    if (configId === "mode") return await this.setMode(value);
    if (configId === "model") return this.#session.setModel(value);
    throw acp.RequestError.invalidParams({ configId }, `Unknown config option "${configId}" (mode, model)`);
  }

  /** Stops a running turn, waits for it (its calls record aborted outputs), closes the session. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#turn?.controller.abort();
    await this.#turn?.done;
    await this.#sent.catch(() => {});
    await this.#session.close();
  }

  #events: EventSink = (event) => {
    for (const update of this.#updates.updatesFor(event)) this.#send(update);
    if (event.type === "warning") this.options.log(`warning: ${event.message}\n`);
  };

  #send(update: acp.SessionUpdate): void {
    const sessionId = this.#session?.id;
    if (!sessionId) return;
    this.#sent = this.#sent.then(() =>
      this.options.client().notify("session/update", { sessionId, update }).catch(() => {})
    );
  }

  async #askPermission(ask: AcpPermissionAsk): Promise<string | null> {
    await this.#sent;
    try {
      const params: acp.RequestPermissionRequest = {
        sessionId: this.id,
        toolCall: { toolCallId: ask.callId, title: ask.title, rawInput: ask.args },
        options: ask.options.map((o) => ({ optionId: o.id, name: o.name, kind: o.kind })),
      };
      const turn = this.#turn;
      const response = await this.options.client().request(
        "session/request_permission",
        params,
        turn ? { cancellationSignal: turn.controller.signal, stopWaitingOnCancel: true } : {},
      );
      return response.outcome.outcome === "selected" ? response.outcome.optionId : null;
    } catch (error) {
      this.options.log(`trellis acp: the permission request was not answered: ${describeError(error)}\n`);
      return null;
    }
  }
}
