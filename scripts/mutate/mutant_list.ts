/**
 * The mutant lists: every `scripts/mutate/mutants/*.json`, a JSON array of
 * `{"file", "find", "replace", "why", "tests"}`. `find` is exact text that occurs exactly once in
 * `file`; anything else means the list went stale (the code moved on), and every such problem is
 * reported at once, before any mutant runs.
 */
import * as path from "node:path";

export interface Mutant {
  /** `<list>.json#<index>`, stable while the list keeps its order. */
  id: string;
  file: string;
  find: string;
  replace: string;
  why: string;
  /** Test files or directories (relative to the root) that must fail on this mutant. */
  tests: string[];
}

export class MutantListError extends Error {
  constructor(readonly problems: string[]) {
    super(`the mutant lists are stale or malformed:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "MutantListError";
  }
}

export const MUTANTS_DIR = "scripts/mutate/mutants";
const FIELDS = ["file", "find", "replace", "why", "tests"];

/**
 * Loads and checks every list under `root`; `only` keeps the mutants whose id or list name
 * (`loop`, `loop.json`) is given. Throws MutantListError naming every problem found.
 */
export async function loadMutants(root: string, only: string[] = []): Promise<Mutant[]> {
  const dir = path.join(root, MUTANTS_DIR);
  const lists = [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".json"))
    .map((e) => e.name).sort();
  const problems: string[] = [];
  const mutants: Mutant[] = [];
  for (const list of lists) {
    const where = `${MUTANTS_DIR}/${list}`;
    let entries: unknown;
    try {
      entries = JSON.parse(await Deno.readTextFile(path.join(dir, list)));
    } catch (error) {
      problems.push(`${where}: not valid JSON (${(error as Error).message})`);
      continue;
    }
    if (!Array.isArray(entries)) {
      problems.push(`${where}: expected a JSON array of mutants`);
      continue;
    }
    for (const [index, entry] of entries.entries()) {
      const id = `${list}#${index}`;
      const shape = checkShape(entry);
      if (shape) {
        problems.push(`${id}: ${shape}`);
        continue;
      }
      const mutant = { id, ...entry } as Mutant;
      const content = readOrNull(path.join(root, mutant.file));
      if (content === null) problems.push(`${id}: ${mutant.file} does not exist`);
      else {
        const count = content.split(mutant.find).length - 1;
        if (count !== 1) {
          problems.push(
            `${id}: "find" occurs ${count} times in ${mutant.file} (must be exactly once): ${
              JSON.stringify(mutant.find)
            }`,
          );
        }
      }
      if (mutant.find === mutant.replace) problems.push(`${id}: "replace" equals "find"`);
      for (const test of mutant.tests) {
        if (!existsPath(path.join(root, test))) problems.push(`${id}: test path ${test} does not exist`);
      }
      mutants.push(mutant);
    }
  }
  if (problems.length) throw new MutantListError(problems);
  if (!only.length) return mutants;
  const picked = mutants.filter((m) =>
    only.some((o) => m.id === o || m.id.startsWith(`${o}#`) || m.id.startsWith(`${o}.json#`))
  );
  if (!picked.length) throw new MutantListError([`no mutant matches ${only.join(", ")}`]);
  return picked;
}

function checkShape(entry: unknown): string | null {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return "expected an object";
  const record = entry as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !FIELDS.includes(k));
  if (unknown.length) return `unknown field ${unknown.map((k) => `"${k}"`).join(", ")}`;
  for (const key of ["file", "find", "replace", "why"]) {
    if (typeof record[key] !== "string") return `"${key}" must be a string`;
  }
  if ((record.find as string) === "") return `"find" must not be empty`;
  const tests = record.tests;
  if (!Array.isArray(tests) || !tests.length || !tests.every((t) => typeof t === "string" && t !== "")) {
    return `"tests" must be a non-empty array of test files or directories`;
  }
  return null;
}

function readOrNull(file: string): string | null {
  try {
    return Deno.readTextFileSync(file);
  } catch {
    return null;
  }
}

function existsPath(file: string): boolean {
  try {
    Deno.statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The file's text with the mutant applied (its `find` occurs exactly once: checked at load). */
export function applyMutant(content: string, mutant: Mutant): string {
  const at = content.indexOf(mutant.find);
  if (at === -1 || content.indexOf(mutant.find, at + 1) !== -1) {
    throw new MutantListError([`${mutant.id}: "find" no longer occurs exactly once in ${mutant.file}`]);
  }
  return content.slice(0, at) + mutant.replace + content.slice(at + mutant.find.length);
}
