import { parse as parseToml } from "smol-toml";
import * as path from "node:path";
import { singleQuoted } from "../shared/mod.ts";
import {
  findInjections,
  type ShellRunner,
  shellStatusLine,
  type WorkspaceRead,
} from "./gemini_injections.ts";

/**
 * A Gemini CLI custom command (`commands/<name>.toml` of an extension, #24 item 3), as Gemini
 * reads it: `prompt` (required) and `description` (default: "Custom command from <file>"); its
 * `@{…}` (a file's text) and `!{…}` (a command's output) are filled in when it is used. Pure.
 */
export function parseGeminiCommand(
  text: string,
  file: string,
): { ok: true; description: string; warnings: string[] } | { ok: false; error: string } {
  let table: Record<string, unknown>;
  try {
    table = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, error: `invalid TOML: ${(error as Error).message.split("\n")[0]}` };
  }
  if (typeof table.prompt !== "string" || table.prompt.trim() === "") {
    return { ok: false, error: "missing field `prompt` (a Gemini CLI command's text)" };
  }
  const description = typeof table.description === "string" && table.description.trim() !== ""
    ? table.description.trim()
    : `Custom command from ${path.basename(file)}`;
  return { ok: true, description, warnings: [] };
}

/**
 * The prompt of a Gemini command as Gemini CLI builds it: each `@{path}` replaced by what `read`
 * gives for it (first, as in Gemini; a path that cannot be read stays as written, with a warning);
 * then each `!{command}` by what `run` gives for it — `{{args}}` inside it as one quoted shell word
 * — with Gemini's status line when it failed (one that did not run stays as written, with a
 * warning); then `{{args}}` by the user's arguments, or — with no `{{args}}` and some arguments —
 * the command as typed appended after a blank line. A file's text is data: a `{{args}}`, `@{` or
 * `!{` in it is never filled or run.
 */
export async function expandGeminiPrompt(
  name: string,
  text: string,
  args: string,
  io: { read?: (pathText: string) => Promise<WorkspaceRead>; run?: ShellRunner } = {},
): Promise<{ text: string; warnings: string[] }> {
  const { read } = io;
  let prompt: string;
  try {
    const table = parseToml(text) as Record<string, unknown>;
    prompt = typeof table.prompt === "string" ? table.prompt : text;
  } catch {
    prompt = text;
  }
  const warnings: string[] = [];
  const usesArgs = prompt.includes("{{args}}");
  const filled = (part: string) => fillShell(name, part, args, io.run, warnings);
  let out = "";
  let rest = prompt;
  if (read && prompt.includes("@{")) {
    const found = findInjections(prompt, "@{");
    if (found.unclosedAt !== undefined) {
      warnings.push(
        `Gemini CLI command /${name}: the \`@{\` at offset ${found.unclosedAt} is never closed; ` +
          "its files were not read and the prompt is sent as written",
      );
    } else {
      let last = 0;
      for (const injection of found.injections) {
        out += await filled(prompt.slice(last, injection.start));
        const got = await read(injection.content);
        if (got.ok) {
          out += got.text;
          warnings.push(...got.notes.map((n) => `Gemini CLI command /${name}: ${n}`));
        } else {
          out += prompt.slice(injection.start, injection.end);
          warnings.push(
            `Gemini CLI command /${name}: cannot fill @{${injection.content}}: ${got.error}; it is sent as written`,
          );
        }
        last = injection.end;
      }
      rest = prompt.slice(last);
    }
  }
  out += await filled(rest);
  if (usesArgs || args === "") return { text: out, warnings };
  return { text: `${out.replace(/\n*$/, "")}\n\n/${name} ${args}`, warnings };
}

/** One part of the prompt outside any file's text: its `!{…}` run, its `{{args}}` filled. */
async function fillShell(
  name: string,
  part: string,
  args: string,
  run: ShellRunner | undefined,
  warnings: string[],
): Promise<string> {
  // A function replacement: `$&`, `$'` or `` $` `` in the arguments are text, not replacement patterns.
  const raw = (text: string) => text.replaceAll("{{args}}", () => args);
  if (!part.includes("!{")) return raw(part);
  const found = findInjections(part, "!{");
  if (found.unclosedAt !== undefined) {
    warnings.push(
      `Gemini CLI command /${name}: the \`!{\` at offset ${found.unclosedAt} is never closed; ` +
        "no command of it ran and it is sent as written",
    );
    return raw(part);
  }
  let out = "";
  let last = 0;
  for (const injection of found.injections) {
    out += raw(part.slice(last, injection.start));
    last = injection.end;
    // `{{args}}` inside `!{…}` is one shell word whatever it holds (Gemini escapes it for the shell too).
    const quoted = singleQuoted(args);
    const command = injection.content.replaceAll("{{args}}", () => quoted);
    if (command === "") continue;
    const got = run
      ? await run(command, name)
      : { ok: false as const, reason: "nothing runs commands here (a preview runs none)" };
    if (got.ok) {
      out += got.output + shellStatusLine(command, got);
      continue;
    }
    out += part.slice(injection.start, injection.end);
    warnings.push(`Gemini CLI command /${name}: !{${command}} not run: ${got.reason}; it is sent as written`);
  }
  return out + raw(part.slice(last));
}
