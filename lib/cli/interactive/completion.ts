import * as path from "node:path";
import type { FileSystem } from "../../platform/mod.ts";

export interface CompletionSources {
  /** `/name` of every slash command, plugin commands included. */
  commands(): string[];
  /** Names of the enabled skills. */
  skills(): Promise<string[]>;
  fs: FileSystem;
  cwd: string;
}

export interface Completion {
  /** The text that replaces the word (a common prefix when several candidates remain). */
  replacement: string;
  /** Every candidate when more than one remains (shown under the prompt). */
  candidates: string[];
}

const MAX_ENTRIES = 500;

/**
 * Tab completion for the word before the cursor: `/command` at the start of the prompt, `$skill`
 * names, `@path` file mentions (directories end in `/`; hidden entries only when the typed part
 * starts with a dot). One candidate completes (with a space after it unless it is a directory);
 * several complete their common prefix and are listed.
 */
export async function complete(
  word: string,
  atStart: boolean,
  sources: CompletionSources,
): Promise<Completion | null> {
  let candidates: string[];
  if (word.startsWith("/") && atStart) {
    candidates = sources.commands().filter((c) => c.startsWith(word));
  } else if (word.startsWith("$")) {
    candidates = (await sources.skills()).map((s) => `$${s}`).filter((s) => s.startsWith(word));
  } else if (word.startsWith("@")) {
    candidates = (await pathCandidates(word.slice(1), sources)).map((p) => `@${p}`);
  } else return null;
  candidates = [...new Set(candidates)].sort();
  if (candidates.length === 0) return null;
  if (candidates.length === 1) {
    const only = candidates[0];
    return { replacement: only.endsWith("/") ? only : `${only} `, candidates: [] };
  }
  return { replacement: commonPrefix(candidates), candidates };
}

async function pathCandidates(typed: string, sources: CompletionSources): Promise<string[]> {
  const slash = typed.lastIndexOf("/");
  const dirPart = slash >= 0 ? typed.slice(0, slash + 1) : "";
  const base = typed.slice(slash + 1);
  const dir = path.resolve(sources.cwd, dirPart || ".");
  const entries = (await sources.fs.readDir(dir).catch(() => [])).slice(0, MAX_ENTRIES);
  return entries
    .filter((e) => e.name.startsWith(base) && (base.startsWith(".") || !e.name.startsWith(".")))
    .map((e) => `${dirPart}${e.name}${e.isDirectory ? "/" : ""}`);
}

function commonPrefix(words: string[]): string {
  let prefix = words[0];
  for (const word of words.slice(1)) {
    let i = 0;
    while (i < prefix.length && i < word.length && prefix[i] === word[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}
