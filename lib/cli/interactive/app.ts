import type { ApprovalRequest, LoadedConfig, Session, SessionOptions } from "../../app/mod.ts";
import { openInBrowser, type Platform, type TerminalIo } from "../../platform/mod.ts";
import { isTrellisError, terminalText, TrellisError, type TrellisEventBody } from "../../shared/mod.ts";
import { explainCall, interactiveApprover } from "./approval_prompt.ts";
import { complete } from "./completion.ts";
import { interactiveElicitation } from "./elicitation_form.ts";
import { interactiveQuestioner } from "./user_input_form.ts";
import { EventView } from "./event_view.ts";
import { PromptHistory } from "./history.ts";
import { KeyDecoder, type KeyEvent } from "./keys.ts";
import { LineBuffer } from "./line_buffer.ts";
import { elapsed, liveRegion } from "./live_view.ts";
import { loadMarkdownLibraries } from "./markdown_libraries.ts";
import { wrap } from "./markdown_render.ts";
import type { MarkdownLibraries } from "./markdown_render.ts";
import { readMentions } from "./mentions.ts";
import { choiceQuestion, editKey } from "./questions.ts";
import { Screen } from "./screen.ts";
import { pickSession } from "./session_list.ts";
import type { SlashCommand, SlashContext } from "./slash_commands.ts";
import { CommandTable } from "./command_table.ts";
import { detectCaps, glyphs, palette } from "./style.ts";
import type { Question, Ui } from "./ui.ts";
import { replayLines } from "./replay.ts";
import { KeyLatencyLog } from "./key_latency.ts";

export interface InteractiveOptions {
  platform: Platform;
  loaded: LoadedConfig;
  /** Opens a session with the UI's event sink, approver and elicitation form. */
  openSession: (
    parts: Pick<SessionOptions, "events" | "approver" | "elicitation" | "resume" | "questioner">,
  ) => Promise<Session>;
  /** The first prompt (`trellis PROMPT`). */
  prompt?: string;
  /** A session id to continue, or "pick" for the picker. */
  resume?: string;
  /**
   * The project is untrusted and holds what trust would start (#21 item 5): asked once before the
   * session opens; `accept` records the trust and makes the next session open in the trusted
   * workspace, resolving to the file written.
   */
  trustOffer?: { root: string; description: string; accept: () => Promise<string> };
  /** The directory trellis was started in (a resumed session runs where it was recorded). */
  startedIn?: string;
  /** The session picker lists every directory's sessions, not only this one's (`resume --all`). */
  pickAll?: boolean;
  maxSteps: number;
  /** Runs a trellis subcommand in-process (for /hooks, /plugins), writing through `write`. */
  runCli: (argv: string[], write: (text: string) => void) => Promise<number>;
  version: string;
}

/** Ctrl-C presses this soon after an interrupt only interrupt: a storm must not also quit. */
const EXIT_GUARD_MS = 400;
/** How long after a one-key answer's last key the rest of its word still counts as the answer's. */
const SWALLOW_MS = 1000;

/**
 * The interactive session: one terminal, many turns over one `Session` (or a new one after /new,
 * /resume). Keys go to the prompt, or to the question being asked (an approval, a form field, the
 * session picker); the session's events go to the event view; the screen redraws the live region.
 */
export class InteractiveApp implements Ui {
  readonly caps;
  readonly colors;
  readonly glyphs;
  readonly #terminal: TerminalIo;
  readonly #screen: Screen;
  readonly #decoder: KeyDecoder;
  readonly #editor = new LineBuffer();
  #view: EventView;
  #session: Session | null = null;
  /**
   * The session being opened (or the last one opened): what Tab typed meanwhile waits for. Until
   * the first open starts (history, the session picker) it waits for that one.
   */
  #opened: Promise<boolean>;
  #firstOpened!: (ok: boolean) => void;
  #history: PromptHistory | null = null;
  #questions: { question: Question; done: () => void }[] = [];
  #busy: { label: string; started: number; controller: AbortController } | null = null;
  #queued: { text: string; shown: string }[] = [];
  #hint: string[] = [];
  /** The running subagents' panel shows a row a child (Ctrl-O toggles, #22 item 6). */
  #agentsExpanded = false;
  #spinner = 0;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #shuttingDown: Promise<number> | undefined;
  #exitArmed = false;
  /** What is left of a one-key answer's word, and when its last key came (`#swallowed`). */
  #swallow: { rest: string; at: number } | null = null;
  // performance.now() counts from process start: 0 would swallow a Ctrl-C in the first 400 ms.
  #lastInterrupt = -Infinity;
  readonly #commands: CommandTable;
  #contextPercent: number | null = null;
  #libs: Promise<MarkdownLibraries> | null = null;
  #quit!: (code: number) => void;
  #finished: Promise<number>;
  #latency: KeyLatencyLog | null;
  #cleanups: (() => void)[] = [];

  constructor(private readonly options: InteractiveOptions) {
    const env = (name: string) => options.platform.env(name);
    this.caps = detectCaps(env);
    this.colors = palette(this.caps);
    this.glyphs = glyphs(this.caps);
    this.#terminal = options.platform.terminal();
    this.#screen = new Screen(this.#terminal, () => this.#live(), { ascii: !this.caps.unicode });
    this.#decoder = new KeyDecoder((key) => this.#key(key));
    this.#view = new EventView(this, (callId) => this.#argumentsOf(callId));
    this.#finished = new Promise((resolve) => (this.#quit = resolve));
    this.#opened = new Promise((resolve) => (this.#firstOpened = resolve));
    this.#latency = KeyLatencyLog.fromEnv(options.platform);
    this.#commands = new CommandTable(this, { session: () => this.#session, opened: () => this.#opened });
  }

  // --- Ui -------------------------------------------------------------------------------------

  width(): number {
    return this.#screen.columns;
  }

  print(lines: string[]): void {
    this.#screen.commit(lines);
  }

  ask(question: Question): Promise<void> {
    return new Promise((resolve) => {
      this.#questions.push({ question, done: resolve });
      this.refresh();
    });
  }

  refresh(): void {
    this.#screen.schedule();
  }

  // --- life cycle -----------------------------------------------------------------------------

  async run(): Promise<number> {
    const { platform, loaded } = this.options;
    this.#terminal.setRawMode(true);
    this.#terminal.write("\x1b[?2004h"); // bracketed paste
    this.#cleanups.push(this.#terminal.onInput((text) => {
      this.#latency?.received();
      this.#decoder.feed(text);
    }));
    this.#cleanups.push(this.#terminal.onResize(() => this.#screen.resized()));
    this.#cleanups.push(platform.onSignal("SIGTERM", () => void this.#shutdown(143)));
    this.#cleanups.push(platform.onSignal("SIGINT", () => this.#interrupt()));
    // A first line before any frame, so the live region never starts at the top-left corner.
    this.print([`${this.colors.bold("Trellis")} ${this.colors.dim(this.options.version)}`]);
    try {
      this.#history = await PromptHistory.open(platform.fs, loaded.paths.home, loaded.paths.projectRoot);
      // The first prompt waits, like anything typed meanwhile, until the session is open.
      if (this.options.prompt) this.#queued.push({ text: this.options.prompt, shown: this.options.prompt });
      let resume = this.options.resume;
      if (resume === "pick") {
        resume = await this.#pickSession() ?? undefined;
        if (resume === undefined) return await this.#shutdown(0);
      }
      if (this.options.trustOffer) await this.#offerTrust(this.options.trustOffer);
      if (!await this.#open(resume)) return await this.#shutdown(2);
      this.#screen.draw();
      // The renderer's libraries load once the prompt is up, so they never delay it.
      setTimeout(() => this.#libraries(), 0);
      return await this.#finished;
    } catch (error) {
      this.print([
        this.colors.red(`error: ${terminalText((error as Error).message, { lineBreaks: "show" })}`),
      ]);
      return await this.#shutdown(isTrellisError(error) ? error.exitCode : 1);
    }
  }

  /**
   * Ends the app once: SIGTERM, Ctrl-D, /quit and a SessionStart stop may all ask, and a second
   * call while the first awaits the session's close gets the first's outcome instead of closing the
   * screen under it.
   */
  #shutdown(code: number): Promise<number> {
    this.#shuttingDown ??= this.#shutdownOnce(code);
    return this.#shuttingDown;
  }

  async #shutdownOnce(code: number): Promise<number> {
    this.#firstOpened(false);
    this.#busy?.controller.abort();
    for (const { question } of this.#questions) question.cancel();
    clearInterval(this.#ticker);
    const session = this.#session;
    this.#session = null;
    if (session) {
      await session.close().catch(() => {});
      this.print([
        this.colors.dim(
          `Session ${session.threadId} saved; continue it with: trellis resume ${session.threadId}`,
        ),
      ]);
    }
    this.#screen.close();
    this.#terminal.write("\x1b[?2004l");
    await this.#terminal.drain();
    this.#terminal.setRawMode(false);
    for (const cleanup of this.#cleanups) cleanup();
    this.#decoder.close();
    await this.#latency?.save();
    this.#quit(code);
    return code;
  }

  #libraries(): Promise<MarkdownLibraries> {
    this.#libs ??= loadMarkdownLibraries(this.colors, this.caps.color);
    return this.#libs;
  }

  /** Opens a session (new, or `resume`); on failure says why and returns false. */
  async #open(resume?: string): Promise<boolean> {
    const opened = this.#opening(resume);
    this.#opened = opened;
    void opened.then(this.#firstOpened);
    return await opened;
  }

  async #opening(resume?: string): Promise<boolean> {
    this.#busy = { label: "Starting", started: performance.now(), controller: new AbortController() };
    this.#tick();
    try {
      const view = new EventView(this, (callId) => this.#argumentsOf(callId));
      view.renderRaw = this.options.platform.env("TRELLIS_RENDER_RAW") === "1";
      this.#view = view;
      const session = await this.options.openSession({
        events: (event: TrellisEventBody) => view.handle(event),
        approver: interactiveApprover(this, { explain: (request) => this.#explain(request) }),
        elicitation: interactiveElicitation(this, {
          openUrl: (url) => openInBrowser(this.options.platform, url),
        }),
        questioner: interactiveQuestioner(this),
        ...(resume ? { resume } : {}),
      });
      this.#session = session;
      await this.#commands.load(session);
      // MCP prompts are listed once the prompt is up: a prompts/list never delays it.
      setTimeout(() => void this.#commands.refresh(), 0);
      this.#header(session, Boolean(resume));
      if (resume) this.#whereResumed(session);
      if (resume) {
        view.libraries = await this.#libraries();
        this.print(replayLines(this, session.transcript.items, view));
      }
      // The session says why a SessionStart hook stopped it (a notice); the app only ends.
      const start = await session.start(this.#busy.controller.signal);
      if (start.stop) void this.#shutdown(0);
      return true;
    } catch (error) {
      this.print([
        this.colors.red(`error: ${terminalText((error as Error).message, { lineBreaks: "show" })}`),
      ]);
      return false;
    } finally {
      this.#endBusy();
    }
  }

  #header(session: Session, resumed: boolean): void {
    const info = session.info();
    const c = this.colors;
    const home = this.options.platform.homeDir();
    const cwd = info.cwd.startsWith(home + "/") ? `~${info.cwd.slice(home.length)}` : info.cwd;
    this.print([
      `${terminalText(info.model, { lineBreaks: "show" })} ${c.dim("·")} ${
        terminalText(cwd, { lineBreaks: "show" })
      }`,
      c.dim(
        `session ${info.threadId}${
          resumed ? " (resumed)" : ""
        } · ${info.sandboxMode} · approvals ${info.approvalPolicy} · /help for commands`,
      ),
      "",
    ]);
  }

  /**
   * Trust on first start, as Codex and Claude Code ask it: what the folder would start, then one
   * key; yes records the trust (`trellis project trust`'s record) and this session loads it all.
   */
  async #offerTrust(offer: NonNullable<InteractiveOptions["trustOffer"]>): Promise<void> {
    const c = this.colors;
    const show = (text: string) => terminalText(text, { lineBreaks: "show" });
    this.print([
      c.bold(c.yellow(`? Trust this folder? ${show(offer.root)}`)),
      ...wrap(`it would start ${show(offer.description)}`, this.width() - 4).map((l) => `  ${l}`),
      c.dim("  (without trust they stay off; `trellis project trust` records the same)"),
    ]);
    const trust = await new Promise<boolean>((resolve) => {
      void this.ask(choiceQuestion(this, {
        title: "Trust this folder?",
        choices: [
          { key: "y", label: "yes, trust it", value: true },
          { key: "n", label: "no, not now", value: false },
        ],
        onEscape: false,
      }, resolve));
    });
    if (!trust) {
      this.print([c.yellow(`  ${this.glyphs.fail} not trusted: the session starts without them`), ""]);
      return;
    }
    try {
      const file = await offer.accept();
      this.print([c.green(`  ${this.glyphs.ok} trusted (recorded in ${show(file)})`), ""]);
    } catch (error) {
      this.print([c.red(`  cannot trust ${show(offer.root)}: ${show((error as Error).message)}`), ""]);
    }
  }

  /** Says where a resumed session runs when that is not where trellis was started (#21 item 4). */
  #whereResumed(session: Session): void {
    const started = this.options.startedIn ?? this.options.loaded.paths.cwd;
    const runs = session.info().cwd;
    const recorded = session.transcript.meta.cwd;
    const show = (dir: string) => terminalText(dir, { lineBreaks: "show" });
    if (recorded && recorded !== runs) {
      this.print([
        this.colors.yellow(
          `Recorded in ${show(recorded)}, which is no longer a directory: continuing in ${show(runs)}`,
        ),
        "",
      ]);
    } else if (runs !== started) {
      this.print([
        this.colors.yellow(
          `Continuing in ${show(runs)}, where this session was recorded (not ${show(started)})`,
        ),
        "",
      ]);
    }
  }

  /** Where the open session works (a resumed one: where it was recorded). */
  #cwd(): string {
    return this.#session?.info().cwd ?? this.options.loaded.paths.cwd;
  }

  // --- keys -----------------------------------------------------------------------------------

  #key(key: KeyEvent): void {
    while (this.#questions[0]?.question.settled) this.#questions.shift()!.done();
    if (this.#swallowed(key)) return;
    const active = this.#questions[0];
    if (active) {
      if (key.kind === "key" && key.ctrl && key.name === "d") return void this.#quitNow();
      if (key.kind === "key" && key.ctrl && key.name === "c") {
        // Ctrl-C at a question stops the turn: as the question's own answer (an approval's `x`),
        // else the question is cancelled with everything else the turn was doing (#21 item 2).
        if (active.question.interrupt) active.question.interrupt();
        else if (this.#busy) this.#interrupt();
        else active.question.key(key);
        this.#screen.draw();
        return;
      }
      active.question.key(key);
      const trailing = active.question.settled ? active.question.trailing : undefined;
      if (trailing !== undefined) this.#swallow = { rest: trailing.toLowerCase(), at: performance.now() };
      this.#screen.draw();
      return;
    }
    this.#editorKey(key);
    this.#screen.draw();
    this.#latency?.echoed(this.#terminal);
  }

  /**
   * The rest of a one-key answer's word and its Enter (`es⏎` after the `y` of `yes⏎`), typed
   * right after the answer, are the answer's, never the next prompt's or the next question's.
   */
  #swallowed(key: KeyEvent): boolean {
    const swallow = this.#swallow;
    if (!swallow) return false;
    this.#swallow = null;
    if (key.kind !== "key" || key.ctrl || key.meta) return false;
    if (performance.now() - swallow.at > SWALLOW_MS) return false;
    if (key.name === "return" || key.name === "enter") return true;
    if (!swallow.rest || key.text.toLowerCase() !== swallow.rest[0]) return false;
    this.#swallow = { rest: swallow.rest.slice(1), at: performance.now() };
    return true;
  }

  #editorKey(key: KeyEvent): void {
    const buffer = this.#editor;
    if (key.kind === "paste") {
      buffer.paste(key.text);
      this.#hint = [];
      return;
    }
    const wasArmed = this.#exitArmed;
    this.#exitArmed = false;
    this.#hint = [];
    const { name, ctrl, meta } = key;
    if (ctrl && name === "c") return this.#ctrlC(wasArmed);
    if (ctrl && name === "d") {
      if (buffer.empty) return void this.#quitNow();
      return buffer.deleteForward();
    }
    if (name === "escape") return this.#busy ? this.#interrupt() : undefined;
    if (name === "return" && !meta) {
      if (buffer.text.endsWith("\\") && buffer.cursor === buffer.text.length) {
        buffer.backspace();
        return buffer.insert("\n");
      }
      const text = buffer.value();
      const shown = buffer.text;
      buffer.clear();
      if (text.trim()) this.#submit(text, shown);
      return;
    }
    if ((name === "return" && meta) || name === "enter" || (ctrl && name === "j")) return buffer.insert("\n");
    if (name === "tab" && !key.shift) return void this.#complete();
    if (name === "up" && !ctrl) {
      if (!buffer.up()) {
        const previous = this.#history?.previous(buffer.text);
        if (previous !== null && previous !== undefined) buffer.set(previous);
      }
      return;
    }
    if (name === "down" && !ctrl) {
      if (!buffer.down()) {
        const next = this.#history?.next();
        if (next !== null && next !== undefined) buffer.set(next);
      }
      return;
    }
    if (ctrl && name === "l") return void this.#terminal.write("\x1b[2J\x1b[H");
    if (ctrl && name === "o") return void (this.#agentsExpanded = !this.#agentsExpanded);
    editKey(buffer, key);
  }

  #ctrlC(armed: boolean): void {
    if (this.#busy) return this.#interrupt();
    if (!this.#editor.empty) return this.#editor.clear();
    if (performance.now() - this.#lastInterrupt < EXIT_GUARD_MS) return;
    if (armed) return void this.#quitNow();
    this.#exitArmed = true;
    this.#hint = ["press Ctrl-C again to quit (or Ctrl-D)"];
  }

  #interrupt(): void {
    if (!this.#busy || this.#busy.controller.signal.aborted) return;
    this.#lastInterrupt = performance.now();
    this.#busy.controller.abort();
    for (const { question } of this.#questions) question.cancel();
  }

  async #quitNow(): Promise<void> {
    await this.#shutdown(0);
  }

  async #complete(): Promise<void> {
    const buffer = this.#editor;
    const { start, word } = buffer.wordBeforeCursor();
    const before = buffer.text;
    // Tab pressed while the session still starts (MCP servers, skills) completes once it is open.
    if (!this.#session) await this.#opened;
    const session = this.#session;
    if (start === 0 && word.startsWith("/")) await this.#commands.refresh();
    const result = await complete(word, start === 0, {
      commands: () => this.#commands.names(),
      skills: async () => session ? (await session.skills()).map((s) => s.name) : [],
      fs: this.options.platform.fs,
      cwd: this.#cwd(),
    });
    if (buffer.text !== before || !result) return;
    buffer.replaceRange(start, buffer.cursor, result.replacement);
    const shown = result.candidates.slice(0, 8).map((c) => terminalText(c, { lineBreaks: "show" })).join(
      "  ",
    );
    const more = result.candidates.length > 8
      ? `  ${this.glyphs.ellipsis} ${result.candidates.length - 8} more`
      : "";
    this.#hint = result.candidates.length ? [`${shown}${more}`] : [];
    this.#screen.draw();
  }

  // --- prompts and turns ----------------------------------------------------------------------

  #submit(text: string, shown: string): void {
    void this.#history?.add(text);
    const command = this.#commands.resolve(text);
    if (this.#busy && !(command && CommandTable.immediate(command.command))) {
      this.#queued.push({ text, shown });
      return;
    }
    this.#echo(shown);
    if (command) void this.#runCommand(command.command, command.args);
    else void this.#turn(text);
  }

  #echo(shown: string): void {
    const c = this.colors;
    const lines = wrap(terminalText(shown, { tabWidth: 2 }), this.width() - 3);
    this.print(["", ...lines.map((line, i) => c.bold(`${i === 0 ? this.glyphs.prompt : "  "}${line}`)), ""]);
  }

  async #runCommand(command: SlashCommand, args: string): Promise<void> {
    try {
      await command.run(args, this.#slashContext());
    } catch (error) {
      this.print([
        this.colors.red(
          `/${command.name}: ${terminalText((error as Error).message, { lineBreaks: "show" })}`,
        ),
      ]);
    }
    // A command that never went busy (an unknown /word, /init with an AGENTS.md, a cancelled
    // picker) ends here, not in #endBusy: what was queued behind it runs now.
    if (!this.#busy) this.#runNextQueued();
    this.refresh();
  }

  #slashContext(): SlashContext {
    return {
      ui: this,
      platform: this.options.platform,
      session: () => this.#requireSession(),
      view: () => this.#view,
      submitPrompt: (prompt) => this.#turn(prompt),
      newSession: () => this.#replaceSession(undefined),
      resumeSession: async () => {
        const id = await this.#pickSession();
        if (id) await this.#replaceSession(id);
      },
      runCli: async (argv) => {
        await this.options.runCli(
          [...argv, "-C", this.#cwd()],
          (text) => this.print(terminalText(text, { tabWidth: 2 }).replace(/\n$/, "").split("\n")),
        );
      },
      busy: async (label, work) => {
        const controller = this.#startBusy(label);
        try {
          return await work(controller.signal);
        } finally {
          this.#endBusy();
        }
      },
      quit: () => void this.#quitNow(),
    };
  }

  #requireSession(): Session {
    if (!this.#session) throw new TrellisError("internal", "no session is open", { field: "session" });
    return this.#session;
  }

  #startBusy(label: string): AbortController {
    const controller = new AbortController();
    this.#busy = { label, started: performance.now(), controller };
    this.#tick();
    return controller;
  }

  #endBusy(): void {
    this.#busy = null;
    const context = this.#session?.context();
    this.#contextPercent = context && context.tokens > 0
      ? Math.round((context.tokens / context.contextWindow) * 100)
      : null;
    this.#tick();
    this.#runNextQueued();
    this.refresh();
  }

  /** What was typed while something ran, next in line, once a session is open. */
  #runNextQueued(): void {
    const next = this.#session ? this.#queued.shift() : undefined;
    if (next !== undefined) this.#submit(next.text, next.shown);
  }

  async #turn(prompt: string): Promise<void> {
    const session = this.#requireSession();
    const controller = this.#startBusy("Working");
    const started = performance.now();
    const view = this.#view;
    view.resetTurn();
    try {
      view.libraries = await this.#libraries();
      const { attachments, notes } = await readMentions(prompt, {
        fs: this.options.platform.fs,
        cwd: session.info().cwd,
      });
      if (notes.length) {
        this.print(notes.map((n) => this.colors.dim(`  ${terminalText(n, { lineBreaks: "show" })}`)));
      }
      const result = await session.runTurn({
        prompt,
        maxSteps: this.options.maxSteps,
        signal: controller.signal,
        attachments,
      });
      view.finishStreams();
      const took = elapsed(performance.now() - started);
      const usage = `${result.usage.inputTokens.toLocaleString("en-US")} in · ${
        result.usage.outputTokens.toLocaleString("en-US")
      } out`;
      // `x` at an approval stopped the turn: the event view said so; one line, not two (#21 item 6).
      if (result.status === "aborted" && !controller.signal.aborted) {
        this.print([""]);
      } else if (result.status === "aborted") {
        this.print([
          this.colors.yellow(
            `${this.glyphs.fail} interrupted after ${took}: running calls got an aborted output; tell the model what to do instead`,
          ),
          "",
        ]);
      } else if (result.status === "max_steps") {
        this.print([this.colors.yellow(`stopped: reached the step limit (${this.options.maxSteps})`)]);
      } else if (result.status !== "failed") {
        this.print([this.colors.dim(`${this.glyphs.rule} ${took} · ${usage}`)]);
      }
    } catch (error) {
      view.finishStreams();
      this.print([
        this.colors.red(`error: ${terminalText((error as Error).message, { lineBreaks: "show" })}`),
      ]);
    } finally {
      // The prompt waits for the person again: Notification idle_prompt after 60 s (#24 item 1).
      session.waitingForInput();
      this.#endBusy();
    }
  }

  async #replaceSession(resume: string | undefined): Promise<void> {
    const old = this.#session;
    this.#session = null;
    if (old) await old.close().catch(() => {});
    if (await this.#open(resume)) return;
    if (!await this.#open(undefined)) void this.#shutdown(1);
  }

  #pickSession(): Promise<string | null> {
    const cwd = this.options.pickAll ? null : this.#cwd();
    return pickSession(this, this.options.platform.fs, this.options.loaded.paths.home, cwd);
  }

  async #explain(request: ApprovalRequest): Promise<string> {
    const session = this.#requireSession();
    return await explainCall(session, request, (this.#busy?.controller ?? new AbortController()).signal);
  }

  #argumentsOf(callId: string): string | undefined {
    const items = this.#session?.transcript.items ?? [];
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (item.type === "function_call" && item.callId === callId) return item.arguments;
    }
    return undefined;
  }

  // --- drawing --------------------------------------------------------------------------------

  /** The spinner turns (and elapsed times count) only while something runs. */
  #tick(): void {
    if (this.#busy && this.#ticker === undefined) {
      this.#ticker = setInterval(() => {
        this.#spinner++;
        this.refresh();
      }, 100);
    } else if (!this.#busy && this.#ticker !== undefined) {
      clearInterval(this.#ticker);
      this.#ticker = undefined;
    }
    this.refresh();
  }

  #live() {
    // Answered (or cancelled) questions leave; the next one in line shows.
    while (this.#questions[0]?.question.settled) this.#questions.shift()!.done();
    const question = this.#questions[0]?.question ?? null;
    return liveRegion(this, {
      busy: this.#busy,
      view: this.#view,
      editor: this.#editor,
      question,
      queued: this.#queued,
      hint: this.#hint,
      footer: this.#footer(),
      spinnerFrame: this.#spinner,
      agents: this.#busy ? this.#session?.subagents() ?? [] : [],
      agentsExpanded: this.#agentsExpanded,
    });
  }

  #footer(): string {
    const session = this.#session;
    if (!session) return "";
    // Read when a turn or command ends, not per frame: before a model report it is an estimate
    // over the whole transcript.
    const percent = this.#contextPercent;
    const context = percent !== null ? `context ${percent}% used · ` : "";
    return `${context}enter send · \\ or alt-enter new line · tab complete · /help`;
  }
}
