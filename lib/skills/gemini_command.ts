import { parse as parseToml } from "smol-toml";
import * as path from "node:path";
import { findInjections, type WorkspaceRead } from "./gemini_injections.ts";

/**
 * A Gemini CLI custom command (`commands/<name>.toml` of an extension, #24 item 3), as Gemini
 * reads it: `prompt` (required) and `description` (default: "Custom command from <file>"). Its
 * `!{…}` (run a shell command) is not run here: that text is sent as written, and loading says so
 * once per command; `@{…}` (a file's text) is filled in when the command is used. Pure.
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
  const warnings = table.prompt.includes("!{")
    ? [`Gemini CLI command ${file}: \`!{…}\` injection is not run by Trellis; that text is sent as written`]
    : [];
  return { ok: true, description, warnings };
}

/**
 * The prompt of a Gemini command as Gemini CLI builds it: each `@{path}` replaced by what `read`
 * gives for it (first, as in Gemini; a path that cannot be read stays as written, with a warning),
 * then `{{args}}` by the user's arguments, or — with no `{{args}}` and some arguments — the command
 * as typed appended after a blank line. A file's text is taken as it is: a `{{args}}` or `@{` in it
 * is not filled.
 */
export async function expandGeminiPrompt(
  name: string,
  text: string,
  args: string,
  read?: (pathText: string) => Promise<WorkspaceRead>,
): Promise<{ text: string; warnings: string[] }> {
  let prompt: string;
  try {
    const table = parseToml(text) as Record<string, unknown>;
    prompt = typeof table.prompt === "string" ? table.prompt : text;
  } catch {
    prompt = text;
  }
  const warnings: string[] = [];
  const usesArgs = prompt.includes("{{args}}");
  const filled = (part: string) => part.replaceAll("{{args}}", args);
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
        out += filled(prompt.slice(last, injection.start));
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
  out += filled(rest);
  if (usesArgs || args === "") return { text: out, warnings };
  return { text: `${out.replace(/\n*$/, "")}\n\n/${name} ${args}`, warnings };
}
