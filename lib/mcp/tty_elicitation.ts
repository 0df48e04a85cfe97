import { terminalText } from "../shared/mod.ts";
import {
  askingAgentNote,
  type ElicitationRequest,
  type ElicitationResponder,
  type ElicitationResponse,
} from "./elicitation.ts";

export interface ElicitationIo {
  readLine(): Promise<string | null>;
  write(text: string): void;
}

type Field = Record<string, unknown>;
const MAX_ATTEMPTS = 3;

/** Thrown inside a prompt when input ends or the person types `!cancel` / `!decline`. */
class Stop {
  constructor(readonly action: "decline" | "cancel") {}
}

/**
 * Prompts on a terminal: forms field by field (strings, numbers, booleans, enums, multi-select
 * arrays, defaults, required), URL mode shows the URL and waits for Enter. One prompt at a time.
 */
export function ttyElicitationResponder(io: ElicitationIo): ElicitationResponder {
  let queue: Promise<unknown> = Promise.resolve();
  const ask = async (request: ElicitationRequest): Promise<ElicitationResponse> => {
    // Everything shown here is the server's choice: made terminal-safe (#13 item 11).
    io.write(
      `\nMCP server '${one(request.server)}' asks${one(askingAgentNote(request))} (${one(request.id)}): ${
        text(request.message)
      }\n`,
    );
    try {
      if (request.mode === "url") {
        io.write(`  Open: ${one(request.url ?? "")}\n  Press Enter when done, or type !decline / !cancel: `);
        await readAnswer(io);
        return { action: "accept" };
      }
      io.write("  (Enter keeps a default; !decline or !cancel to stop)\n");
      return { action: "accept", content: await fillForm(io, request.schema ?? {}) };
    } catch (error) {
      if (error instanceof Stop) return { action: error.action };
      throw error;
    }
  };
  return {
    respond(request) {
      const next = queue.then(() => ask(request));
      queue = next.catch(() => {});
      return next;
    },
  };
}

async function readAnswer(io: ElicitationIo): Promise<string> {
  const line = await io.readLine();
  if (line === null) throw new Stop("cancel");
  const trimmed = line.trim();
  if (trimmed === "!cancel") throw new Stop("cancel");
  if (trimmed === "!decline") throw new Stop("decline");
  return trimmed;
}

async function fillForm(
  io: ElicitationIo,
  schema: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Field>;
  const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : []);
  const content: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties)) {
    const value = await askField(io, name, field, required.has(name));
    if (value !== undefined) content[name] = value;
  }
  return content;
}

async function askField(io: ElicitationIo, name: string, field: Field, required: boolean): Promise<unknown> {
  const choices = enumChoices(field.type === "array" ? (field.items as Field ?? {}) : field);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    io.write(fieldPrompt(name, field, required, choices));
    const answer = await readAnswer(io);
    if (answer === "") {
      if (field.default !== undefined) return field.default;
      if (!required) return undefined;
      io.write("  a value is required\n");
      continue;
    }
    const parsed = parseValue(answer, field, choices);
    if (parsed.ok) return parsed.value;
    io.write(`  ${parsed.error}\n`);
  }
  throw new Stop("cancel");
}

function enumChoices(field: Field): { value: string; title: string }[] | undefined {
  if (Array.isArray(field.enum)) {
    const names = Array.isArray(field.enumNames) ? field.enumNames as string[] : [];
    return (field.enum as string[]).map((value, i) => ({ value, title: names[i] ?? value }));
  }
  const options = (field.oneOf ?? field.anyOf) as { const: string; title?: string }[] | undefined;
  return Array.isArray(options)
    ? options.map((o) => ({ value: o.const, title: o.title ?? o.const }))
    : undefined;
}

function fieldPrompt(
  name: string,
  field: Field,
  required: boolean,
  choices?: { value: string; title: string }[],
) {
  const label = typeof field.title === "string" ? `${one(field.title)} (${one(name)})` : one(name);
  const about = field.description ? ` — ${one(String(field.description))}` : "";
  const lines = [`  ${label}${required ? " *" : ""}${about}\n`];
  choices?.forEach((c, i) =>
    lines.push(
      `    ${i + 1}. ${one(String(c.title))}${c.title !== c.value ? ` [${one(String(c.value))}]` : ""}\n`,
    )
  );
  const kind = field.type === "array" ? "comma-separated choices" : one(String(field.type ?? "string"));
  const def = field.default !== undefined ? ` [default: ${one(JSON.stringify(field.default))}]` : "";
  lines.push(`  ${kind}${def}: `);
  return lines.join("");
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function parseValue(answer: string, field: Field, choices?: { value: string; title: string }[]): Parsed {
  const pick = (text: string): string | undefined => {
    const index = Number(text);
    if (Number.isInteger(index) && index >= 1 && index <= choices!.length) return choices![index - 1].value;
    return choices!.find((c) => c.value === text || c.title === text)?.value;
  };
  if (field.type === "array") {
    const picked = answer.split(",").map((s) => s.trim()).filter(Boolean).map((s) => choices ? pick(s) : s);
    if (picked.some((p) => p === undefined)) return { ok: false, error: "choose from the listed options" };
    return { ok: true, value: picked };
  }
  if (choices) {
    const value = pick(answer);
    return value === undefined
      ? { ok: false, error: "choose one of the listed options" }
      : { ok: true, value };
  }
  if (field.type === "boolean") {
    if (/^(y|yes|true)$/i.test(answer)) return { ok: true, value: true };
    if (/^(n|no|false)$/i.test(answer)) return { ok: true, value: false };
    return { ok: false, error: "answer yes or no" };
  }
  if (field.type === "number" || field.type === "integer") {
    const n = Number(answer);
    const integerOk = field.type === "number" || Number.isInteger(n);
    const inRange = (field.minimum === undefined || n >= (field.minimum as number)) &&
      (field.maximum === undefined || n <= (field.maximum as number));
    return Number.isFinite(n) && integerOk && inRange
      ? { ok: true, value: n }
      : { ok: false, error: `enter ${field.type === "integer" ? "an integer" : "a number"} in range` };
  }
  return { ok: true, value: answer };
}

/** A server-chosen string on one line: every control, line break and bidi character made visible. */
function one(value: string): string {
  return terminalText(value, { lineBreaks: "show" });
}

/** A server's free text (the request message): line breaks kept, everything else made visible. */
function text(value: string): string {
  return terminalText(value);
}
