import * as path from "node:path";
import { platform } from "../../lib/platform/mod.ts";
import {
  loadSkillsSnapshot,
  type SkillRootSpec,
  type SkillsInput,
  type SkillsSnapshot,
} from "../../lib/skills/mod.ts";

export const fs = platform.fs;

export const BASIC_FIXTURE = path.resolve(new URL("../../fixtures/skills/basic", import.meta.url).pathname);

/** A fresh canonical temp dir with `files` (relative path → text) written into it. */
export async function makeTree(files: Record<string, string> = {}): Promise<string> {
  const root = await fs.realPath(await fs.makeTempDir("trellis-skills-"));
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(root, rel);
    await fs.mkdir(path.dirname(file));
    await fs.writeTextFile(file, text);
  }
  return root;
}

export function skillFile(name: string, description = `The ${name} skill.`, body = `${name} body`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}

/** A SkillsInput over explicit roots, without bundled skills. */
export function inputFor(roots: SkillRootSpec[], extra: Partial<SkillsInput> = {}): SkillsInput {
  return {
    cwd: roots[0]?.path ?? "/",
    roots,
    rules: [],
    bundledDir: null,
    bundledCleanupDir: "/nonexistent/.system",
    watchThrottleMs: 50,
    catalog: { includeInstructions: true },
    ...extra,
  };
}

export function userRoot(p: string): SkillRootSpec {
  return { path: p, kind: "extra", scope: "user" };
}

export function snapshotOf(
  roots: SkillRootSpec[],
  extra: Partial<SkillsInput> = {},
): Promise<SkillsSnapshot> {
  return loadSkillsSnapshot(fs, inputFor(roots, extra));
}
