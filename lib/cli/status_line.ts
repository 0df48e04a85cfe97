/**
 * The one-line status `exec` shows on a terminal's stderr while the model works: a spinner, what is
 * happening (thinking, a running tool, an MCP server's progress) and the elapsed time. It is only
 * ever created when stderr is a terminal; it hides while the answer streams or a prompt is open.
 *
 * Hand-written rather than `ora`/`yocto-spinner`: both write through `process.stderr`, the Node
 * stream the binary never builds (building it costs ~7 ms of a start, lib/platform/_bun_stdio.ts),
 * and neither knows to wait for stdout's queued answer text before drawing on the same terminal.
 */
import type { TrellisEventBody } from "../shared/mod.ts";

const UTF8_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const ASCII_FRAMES = ["|", "/", "-", "\\"];
const FRAME_MS = 100;
const MAX_LABEL = 70;

export interface StatusLine {
  /** Follows the turn: what to show, when to hide. */
  observe(event: TrellisEventBody): void;
  /** Erases the line (before other output); it comes back with the next event that shows it. */
  clear(): void;
  /** Hides the line while a person answers a prompt, until `resume`. */
  pause(): void;
  resume(): void;
  /** Erases the line and stops the timer for good. */
  stop(): void;
}

export interface StatusLineOptions {
  /** Writes to stderr, synchronously. */
  write(text: string): void;
  /** Resolves once queued stdout text is out, so the line never lands in the middle of it. */
  flushed(): Promise<void>;
  utf8: boolean;
}

export function terminalStatusLine(options: StatusLineOptions): StatusLine {
  const frames = options.utf8 ? UTF8_FRAMES : ASCII_FRAMES;
  const started = Date.now();
  let label: string | null = null;
  let visible = false;
  let paused = false;
  let stopped = false;
  let frame = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let generation = 0;

  const draw = () => {
    if (label === null || paused || stopped) return;
    const seconds = Math.floor((Date.now() - started) / 1000);
    options.write(`\r\x1b[K${frames[frame++ % frames.length]} ${label} · ${seconds}s`);
    visible = true;
  };
  const erase = () => {
    if (visible) options.write("\r\x1b[K");
    visible = false;
  };
  const halt = () => {
    generation++;
    if (timer !== null) clearInterval(timer);
    timer = null;
    erase();
  };
  const show = (text: string) => {
    if (stopped) return;
    label = oneLine(text);
    if (timer !== null || paused) return;
    const mine = ++generation;
    void options.flushed().then(() => {
      if (mine !== generation || stopped || paused || timer !== null) return;
      draw();
      timer = setInterval(draw, FRAME_MS);
    });
  };
  const hide = () => {
    label = null;
    halt();
  };

  return {
    observe(event) {
      switch (event.type) {
        case "turn.started":
          return show("thinking");
        case "item.agent_message.delta":
        case "approval.requested":
        case "turn.completed":
        case "turn.failed":
          return hide();
        case "item.started":
          return "call_id" in event.item ? show(`running ${event.item.name}`) : undefined;
        case "item.completed":
          return show("thinking");
        case "mcp.tool_progress":
          return show(progressLabel(event));
        case "mcp.elicitation":
          // Asked on the terminal: the form is open until the answer comes back as an action.
          return event.action ? show("thinking") : hide();
        default:
          return;
      }
    },
    clear() {
      const wanted = label;
      halt();
      if (wanted !== null && !stopped) show(wanted);
    },
    pause() {
      paused = true;
      halt();
    },
    resume() {
      paused = false;
      if (label !== null) show(label);
    },
    stop() {
      stopped = true;
      hide();
    },
  };
}

/** "fx slow_tool: 3/10 copying" — what an MCP server says about a running call. */
export function progressLabel(event: TrellisEventBody & { type: "mcp.tool_progress" }): string {
  const amount = event.total !== undefined ? `${event.progress}/${event.total}` : `${event.progress}`;
  return `${event.server} ${event.tool}: ${amount}${event.message ? ` ${event.message}` : ""}`;
}

function oneLine(text: string): string {
  // Control characters from a server's message would move the cursor: they become spaces here.
  // deno-lint-ignore no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/\s+/g, " ").trim();
  return flat.length > MAX_LABEL ? `${flat.slice(0, MAX_LABEL - 1)}…` : flat;
}
