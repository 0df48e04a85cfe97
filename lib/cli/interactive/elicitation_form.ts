import { terminalText } from "../../shared/mod.ts";
import {
  askingAgentNote,
  type ElicitationRequest,
  type ElicitationResponder,
  type ElicitationResponse,
} from "../../app/mod.ts";
import { type Choice, choiceQuestion, listQuestion, textQuestion } from "./questions.ts";
import { wrap } from "./markdown_render.ts";
import type { Question, Ui } from "./ui.ts";

type Field = Record<string, unknown>;
type Stop = { stop: "decline" | "cancel" };

/**
 * MCP elicitations answered in place (MCP-15): the server's message is committed whole; a form is
 * asked field by field, each checked against its schema (type, required, enum, min/max, length,
 * email/uri/date formats) before the next; then accept / decline / cancel. URL mode opens the
 * browser when one can be shown and waits for the person to come back.
 */
export function interactiveElicitation(
  ui: Ui,
  options: { openUrl: (url: URL) => Promise<boolean> },
): ElicitationResponder {
  let queue: Promise<unknown> = Promise.resolve();
  const respond = async (request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationResponse> => {
    const c = ui.colors;
    ui.print([
      c.bold(c.yellow(
        `? MCP server ${terminalText(request.server, { lineBreaks: "show" })} asks${
          terminalText(askingAgentNote(request), { lineBreaks: "show" })
        }`,
      )),
      ...wrap(terminalText(request.message, { tabWidth: 2 }), ui.width() - 4).map((l) => `  ${l}`),
    ]);
    const asked = (question: (done: (value: unknown) => void) => Question) =>
      new Promise<unknown>((resolve) => {
        const q = question(resolve);
        signal.addEventListener("abort", () => q.cancel(), { once: true });
        void ui.ask(q);
      });
    if (request.mode === "url") return await urlMode(ui, request, options, asked);
    const content: Record<string, unknown> = {};
    const schema = request.schema ?? {};
    const properties = (schema.properties ?? {}) as Record<string, Field>;
    const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : []);
    for (const [name, field] of Object.entries(properties)) {
      const value = await askField(ui, name, field, required.has(name), asked);
      if (signal.aborted) return { action: "cancel" };
      if (isStop(value)) return finish(ui, { action: value.stop });
      if (value !== undefined) content[name] = value;
    }
    const choices: Choice<"accept" | "decline" | "cancel">[] = [
      { key: "y", label: "send", value: "accept" },
      { key: "d", label: "decline", value: "decline" },
      { key: "c", label: "cancel", value: "cancel" },
    ];
    const action = await asked((done) =>
      choiceQuestion(ui, {
        title: `Send this to ${terminalText(request.server, { lineBreaks: "show" })}?`,
        choices,
        onEscape: "cancel",
      }, done)
    ) as "accept" | "decline" | "cancel";
    return finish(ui, action === "accept" ? { action, content } : { action });
  };
  return {
    respond(request, signal) {
      const next = queue.then(() => respond(request, signal));
      queue = next.catch(() => {});
      return next;
    },
  };
}

function finish(ui: Ui, response: ElicitationResponse): ElicitationResponse {
  const c = ui.colors;
  ui.print([
    response.action === "accept"
      ? c.green(`  ${ui.glyphs.ok} sent`)
      : c.yellow(`  ${ui.glyphs.fail} ${response.action}ed`.replace("eed", "ed")),
  ]);
  return response;
}

type Ask = (question: (done: (value: unknown) => void) => Question) => Promise<unknown>;

async function urlMode(
  ui: Ui,
  request: ElicitationRequest,
  options: { openUrl: (url: URL) => Promise<boolean> },
  asked: Ask,
): Promise<ElicitationResponse> {
  let url: URL | null = null;
  try {
    url = new URL(request.url ?? "");
  } catch {
    ui.print([
      ui.colors.red(
        `  the server sent an invalid URL: ${terminalText(request.url ?? "", { lineBreaks: "show" })}`,
      ),
    ]);
    return finish(ui, { action: "decline" });
  }
  ui.print([`  ${ui.colors.underline(terminalText(url.href, { lineBreaks: "show" }))}`]);
  const opened = url.protocol === "https:" || url.protocol === "http:" ? await options.openUrl(url) : false;
  ui.print([ui.colors.dim(opened ? "  opened in your browser" : "  open this URL in a browser")]);
  const action = await asked((done) =>
    choiceQuestion(ui, {
      title: "Done in the browser?",
      choices: [
        { key: "y", label: "done", value: "accept" },
        { key: "d", label: "decline", value: "decline" },
        { key: "c", label: "cancel", value: "cancel" },
      ],
      onEscape: "cancel",
    }, done)
  ) as "accept" | "decline" | "cancel";
  return finish(ui, { action });
}

function isStop(value: unknown): value is Stop {
  return typeof value === "object" && value !== null && "stop" in value;
}

function label(name: string, field: Field, required: boolean): string {
  const title = typeof field.title === "string" ? `${field.title} (${name})` : name;
  const description = typeof field.description === "string" ? ` — ${field.description}` : "";
  return terminalText(`${title}${required ? " *" : ""}${description}`, { lineBreaks: "show" });
}

function enumOf(field: Field): { value: string; title: string }[] | undefined {
  if (Array.isArray(field.enum)) {
    const names = Array.isArray(field.enumNames) ? field.enumNames as string[] : [];
    return (field.enum as unknown[]).map((v, i) => ({ value: String(v), title: String(names[i] ?? v) }));
  }
  const options = (field.oneOf ?? field.anyOf) as { const: unknown; title?: string }[] | undefined;
  return Array.isArray(options)
    ? options.map((o) => ({ value: String(o.const), title: String(o.title ?? o.const) }))
    : undefined;
}

async function askField(ui: Ui, name: string, field: Field, required: boolean, asked: Ask): Promise<unknown> {
  const choices = enumOf(field.type === "array" ? (field.items as Field ?? {}) : field);
  if (choices && field.type !== "array") {
    const items = [
      ...choices.map((ch) => ({
        label: terminalText(ch.title, { lineBreaks: "show" }),
        value: ch.value as unknown,
      })),
      ...(required ? [] : [{ label: ui.colors.dim("(leave empty)"), value: undefined }]),
    ];
    const picked = await asked((done) =>
      listQuestion(
        ui,
        { title: label(name, field, required), items },
        (v) => done(v === null ? { stop: "cancel" } : v),
      )
    );
    return picked;
  }
  if (field.type === "boolean") {
    const value = await asked((done) =>
      choiceQuestion(ui, {
        title: label(name, field, required),
        choices: [{ key: "y", label: "yes", value: true as unknown }, {
          key: "n",
          label: "no",
          value: false,
        }],
        onEscape: { stop: "cancel" },
      }, done)
    );
    return value;
  }
  const defaultText = field.default !== undefined ? String(field.default) : "";
  const text = await asked((done) =>
    textQuestion(ui, {
      label: label(name, field, required),
      initial: defaultText,
      hint: choices ? `comma-separated: ${choices.map((ch) => ch.value).join(", ")}` : hintFor(field),
      validate: (input) => {
        const parsed = parseField(input, field, required, choices);
        return "error" in parsed ? parsed.error : null;
      },
    }, done)
  );
  if (text === null) return { stop: "cancel" };
  const parsed = parseField(String(text), field, required, choices);
  return "error" in parsed ? { stop: "cancel" } : parsed.value;
}

function hintFor(field: Field): string | undefined {
  const parts = [String(field.type ?? "string")];
  if (typeof field.format === "string") parts.push(field.format);
  if (field.minimum !== undefined || field.maximum !== undefined) {
    parts.push(`${field.minimum ?? "…"} to ${field.maximum ?? "…"}`);
  }
  return parts.join(", ") + " · esc: cancel";
}

const FORMATS: Record<string, (text: string) => boolean> = {
  email: (t) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t),
  uri: (t) => {
    try {
      return Boolean(new URL(t).protocol);
    } catch {
      return false;
    }
  },
  date: (t) => /^\d{4}-\d{2}-\d{2}$/.test(t) && !Number.isNaN(Date.parse(t)),
  "date-time": (t) => !Number.isNaN(Date.parse(t)) && /\d{4}-\d{2}-\d{2}T/.test(t),
};

/** One field's text → its value, or why it is not acceptable (shown under the field). */
export function parseField(
  input: string,
  field: Field,
  required: boolean,
  choices?: { value: string; title: string }[],
): { value: unknown } | { error: string } {
  const text = input.trim();
  if (text === "") return required ? { error: "a value is required" } : { value: undefined };
  if (field.type === "array") {
    const parts = text.split(",").map((s) => s.trim()).filter(Boolean);
    const bad = choices
      ? parts.find((p) => !choices.some((ch) => ch.value === p || ch.title === p))
      : undefined;
    if (bad !== undefined) return { error: `"${bad}" is not one of the choices` };
    const values = parts.map((p) => choices?.find((ch) => ch.title === p)?.value ?? p);
    if (typeof field.minItems === "number" && values.length < field.minItems) {
      return { error: `choose at least ${field.minItems}` };
    }
    if (typeof field.maxItems === "number" && values.length > field.maxItems) {
      return { error: `choose at most ${field.maxItems}` };
    }
    return { value: values };
  }
  if (field.type === "number" || field.type === "integer") {
    const n = Number(text);
    if (!Number.isFinite(n)) return { error: "enter a number" };
    if (field.type === "integer" && !Number.isInteger(n)) return { error: "enter a whole number" };
    if (typeof field.minimum === "number" && n < field.minimum) return { error: `at least ${field.minimum}` };
    if (typeof field.maximum === "number" && n > field.maximum) return { error: `at most ${field.maximum}` };
    return { value: n };
  }
  if (typeof field.minLength === "number" && text.length < field.minLength) {
    return { error: `at least ${field.minLength} characters` };
  }
  if (typeof field.maxLength === "number" && text.length > field.maxLength) {
    return { error: `at most ${field.maxLength} characters` };
  }
  const format = typeof field.format === "string" ? FORMATS[field.format] : undefined;
  if (format && !format(text)) return { error: `not a valid ${field.format}` };
  return { value: text };
}
