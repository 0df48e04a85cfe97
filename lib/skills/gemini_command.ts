import { parse as parseToml } from "smol-toml";
import * as path from "node:path";

/**
 * A Gemini CLI custom command (`commands/<name>.toml` of an extension, #24 item 3), as Gemini
 * reads it: `prompt` (required) and `description` (default: "Custom command from <file>"). Its
 * `!{…}` (run a shell command) and `@{…}` (inject a file) are not run here: the text is sent as
 * written, and loading says so once per command. Pure.
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
  const injections = ["!{", "@{"].filter((mark) => (table.prompt as string).includes(mark));
  const warnings = injections.length > 0
    ? [
      `Gemini CLI command ${file}: ${
        injections.map((m) => `\`${m}…}\``).join(" and ")
      } injection is not run by Trellis; the prompt is sent as written`,
    ]
    : [];
  return { ok: true, description, warnings };
}

/**
 * The prompt of a Gemini command with the user's arguments: `{{args}}` replaced by them, or — with
 * no `{{args}}` and some arguments — the command as typed appended after a blank line, as Gemini
 * CLI does. Pure.
 */
export function expandGeminiPrompt(name: string, text: string, args: string): string {
  let prompt: string;
  try {
    const table = parseToml(text) as Record<string, unknown>;
    prompt = typeof table.prompt === "string" ? table.prompt : text;
  } catch {
    prompt = text;
  }
  if (prompt.includes("{{args}}")) return prompt.replaceAll("{{args}}", args);
  return args === "" ? prompt : `${prompt.replace(/\n*$/, "")}\n\n/${name} ${args}`;
}
