import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { frontmatterClosedIn } from "./frontmatter.ts";
import { parseOpenAiYaml } from "./openai_yaml.ts";
import { parseSkillText } from "./skill_text.ts";
import { loadYamlParser } from "./yaml_library.ts";
import type { SkillCandidate } from "./discovery.ts";
import type { SkillMetadata, SkillRootSpec } from "./types.ts";

/** Most SKILL.md frontmatter fits here; the rest of the file is not read at load time. */
export const FRONTMATTER_PREFIX_BYTES = 2 * 1024;
/** A frontmatter that has not closed by here is treated as missing (bounds a 50 MB SKILL.md). */
export const MAX_FRONTMATTER_BYTES = 256 * 1024;
const MAX_OPENAI_YAML_BYTES = 64 * 1024;

export type SkillLoad =
  | { ok: true; skill: SkillMetadata; warnings: string[] }
  | { ok: false; error: string; warnings: string[] };

const decoder = new TextDecoder();

/** Reads one skill's metadata: SKILL.md's frontmatter (never the body) and `agents/openai.yaml`. Never throws. */
export async function readSkillMetadata(
  fs: FileSystem,
  found: SkillCandidate,
  root: SkillRootSpec,
): Promise<SkillLoad> {
  let text: string;
  try {
    text = readFrontmatterText(fs, found.path);
  } catch (error) {
    return { ok: false, error: `failed to read file: ${describe(error)}`, warnings: [] };
  }
  const where = { dirName: path.basename(found.dir), namespace: root.plugin?.namespace };
  let parsed = parseSkillText(text, where);
  if (!parsed.ok && parsed.needsParser) parsed = parseSkillText(text, where, await loadYamlParser());
  if (!parsed.ok) return { ok: false, error: parsed.error, warnings: [] };
  const notes = parsed.notes.map((note) => `Skill ${found.path}: ${note} (SK-5)`);
  const extras = found.openAiYaml ? await readOpenAiYaml(fs, found.openAiYaml, found.dir, root) : null;
  const { disableModelInvocation, ...fields } = parsed.value;
  const skill: SkillMetadata = {
    ...fields,
    ...(extras?.interface ? { interface: extras.interface } : {}),
    ...(extras?.dependencies ? { dependencies: extras.dependencies } : {}),
    policy: {
      allowImplicitInvocation: extras?.policy?.allowImplicitInvocation ?? !disableModelInvocation,
      products: extras?.policy?.products ?? [],
    },
    ...skillLocation(found, root),
  };
  return { ok: true, skill, warnings: [...notes, ...extras?.warnings ?? []] };
}

/** Where a loaded skill (or plugin command) was found: the same for every kind of skill file. */
export function skillLocation(
  found: SkillCandidate,
  root: SkillRootSpec,
): Pick<SkillMetadata, "path" | "dir" | "scope" | "root" | "authority" | "plugin"> {
  return {
    path: found.path,
    dir: found.dir,
    scope: root.scope,
    root: root.path,
    authority: "local",
    ...(root.plugin ? { plugin: root.plugin } : {}),
  };
}

function readFrontmatterText(fs: FileSystem, file: string): string {
  const prefix = fs.sync.readFilePrefix(file, FRONTMATTER_PREFIX_BYTES);
  const text = decoder.decode(prefix);
  if (prefix.length < FRONTMATTER_PREFIX_BYTES || frontmatterClosedIn(text)) return text;
  return decoder.decode(fs.sync.readFilePrefix(file, MAX_FRONTMATTER_BYTES));
}

async function readOpenAiYaml(fs: FileSystem, file: string, skillDir: string, root: SkillRootSpec) {
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFilePrefix(file, MAX_OPENAI_YAML_BYTES);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    return { warnings: [`Ignored ${file}: ${describe(error)}`] };
  }
  // Icons stay inside the skill's folder, or, for a plugin skill, inside the plugin: the folder that
  // holds its skills directory (`../../assets/logo.svg` from `<plugin>/skills/<skill>/`).
  const assetRoots = root.plugin ? [path.dirname(path.resolve(root.plugin.root))] : [];
  return parseOpenAiYaml(decoder.decode(bytes), { file, skillDir, assetRoots }, await loadYamlParser());
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
