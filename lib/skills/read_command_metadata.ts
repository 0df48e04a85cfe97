import type { FileSystem } from "../platform/mod.ts";
import { commandSkillName, MAX_COMMAND_BYTES, parseCommandText } from "./command_files.ts";
import { parseGeminiCommand } from "./gemini_command.ts";
import { loadYamlParser } from "./yaml_library.ts";
import type { SkillCandidate } from "./discovery.ts";
import { type SkillLoad, skillLocation } from "./read_skill_metadata.ts";
import type { SkillMetadata, SkillRootSpec } from "./types.ts";

const decoder = new TextDecoder();

/**
 * Reads one plugin command file (`commands/<name>.md`) as an explicit-only skill named
 * `<namespace>:<name>`: it never enters the catalog, and `$ns:name …` selects it. Never throws.
 */
export async function readCommandMetadata(
  fs: FileSystem,
  found: SkillCandidate,
  root: SkillRootSpec,
): Promise<SkillLoad> {
  const name = commandSkillName(root.plugin?.namespace ?? "command", found.commandName ?? "command");
  if (typeof name !== "string") return { ok: false, error: name.error, warnings: [] };
  let text: string;
  try {
    text = decoder.decode(await fs.readFilePrefix(found.path, MAX_COMMAND_BYTES));
  } catch (error) {
    return { ok: false, error: `failed to read file: ${(error as Error).message}`, warnings: [] };
  }
  if (root.plugin?.origin === "gemini") {
    const gemini = parseGeminiCommand(text, found.path);
    if (!gemini.ok) return { ok: false, error: gemini.error, warnings: [] };
    const skill: SkillMetadata = {
      name,
      description: gemini.description,
      policy: { allowImplicitInvocation: false, products: [] },
      ...skillLocation(found, root),
      extra: {},
      command: { format: "gemini" },
    };
    return { ok: true, skill, warnings: gemini.warnings };
  }
  let parsed = parseCommandText(text);
  if (!parsed.ok && parsed.needsParser) parsed = parseCommandText(text, await loadYamlParser());
  if (!parsed.ok) return { ok: false, error: parsed.error, warnings: [] };
  const skill: SkillMetadata = {
    name,
    description: parsed.value.description,
    policy: { allowImplicitInvocation: false, products: [] },
    ...skillLocation(found, root),
    extra: parsed.value.extra,
    command: parsed.value.command,
  };
  return { ok: true, skill, warnings: [] };
}
