import * as path from "node:path";
import { shellTokens } from "../shared/mod.ts";
import type { SkillMetadata, SkillsSnapshot } from "./types.ts";

/** A command the model ran, as the loop sees it. */
export type ObservedCommand =
  | { kind: "shell"; command: string; cwd?: string }
  | { kind: "read"; path: string; cwd?: string };

const INTERPRETERS = new Set([
  "python",
  "python3",
  "bash",
  "zsh",
  "sh",
  "node",
  "deno",
  "ruby",
  "perl",
  "pwsh",
]);
const SCRIPT_EXT = /\.(py|sh|js|ts|rb|pl|ps1)$/;
const READERS = new Set(["cat", "head", "tail", "less", "more", "bat", "sed", "nl"]);

/**
 * SK-13 telemetry: the enabled skill whose script was run or whose SKILL.md was read, if any. The loop
 * de-duplicates per turn with `implicitUseKey` and emits `skill.used` with `how: "implicit"`.
 */
export function detectImplicitUse(snapshot: SkillsSnapshot, command: ObservedCommand): SkillMetadata | null {
  const cwd = command.cwd ?? snapshot.cwd;
  if (command.kind === "read") return skillFileAt(snapshot, path.resolve(cwd, command.path));
  const words = shellWords(command.command);
  for (let i = 0; i < words.length; i++) {
    const program = path.basename(words[i]);
    const args = words.slice(i + 1).filter((w) => !w.startsWith("-"));
    if (INTERPRETERS.has(program)) {
      const script = args.find((a) => SCRIPT_EXT.test(a)) ?? args.find((a) => a !== "run");
      const hit = script ? scriptOwner(snapshot, path.resolve(cwd, script)) : null;
      if (hit) return hit;
    } else if (SCRIPT_EXT.test(words[i]) && i === commandStart(words, i)) {
      const hit = scriptOwner(snapshot, path.resolve(cwd, words[i]));
      if (hit) return hit;
    } else if (READERS.has(program)) {
      for (const a of args) {
        const hit = skillFileAt(snapshot, path.resolve(cwd, a));
        if (hit) return hit;
      }
    }
  }
  return null;
}

/** Per-turn de-duplication key (`scope:path:name`). */
export function implicitUseKey(skill: SkillMetadata): string {
  return `${skill.scope}:${skill.path}:${skill.name}`;
}

function skillFileAt(snapshot: SkillsSnapshot, file: string): SkillMetadata | null {
  return snapshot.implicitIndex.skillFiles.get(file) ?? null;
}

function scriptOwner(snapshot: SkillsSnapshot, file: string): SkillMetadata | null {
  for (let dir = path.dirname(file);; dir = path.dirname(dir)) {
    const hit = snapshot.implicitIndex.scriptDirs.get(dir);
    if (hit) return hit;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Index of the first word of the simple command containing word `i` (after `&&`, `;`, `|`). */
function commandStart(words: string[], i: number): number {
  let start = i;
  while (start > 0 && !["&&", "||", ";", "|"].includes(words[start - 1])) start--;
  return start;
}

/** The command's words and its `&&`/`;`/`|` operators, read by shell-quote (lib/shared/shell_words.ts). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const token of shellTokens(command)) {
    if (token.kind === "comment") break;
    words.push(token.kind === "word" ? token.text : token.op);
  }
  return words;
}
