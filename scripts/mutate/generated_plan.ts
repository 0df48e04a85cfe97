/**
 * `--generate`: turns files into runnable mutants. Every mutant of every file is derived
 * (generate.ts), equivalent ones (same mutated text) are dropped and counted, a seeded sample is
 * drawn when asked, and each mutant gets the tests that import its file (test_graph.ts), or all
 * unit tests when none does. Everything worth knowing about the choice is returned as `notes`.
 */
import * as path from "node:path";
import {
  applyGenerated,
  dedupe,
  type GeneratedMutant,
  generateMutants,
  sample,
  typedSources,
} from "./generate.ts";
import { TestGraph } from "./test_graph.ts";

/** One mutant ready to run, hand-written or generated. */
export interface Job {
  id: string;
  file: string;
  why: string;
  tests: string[];
  apply(content: string): string;
  /** For a generated mutant: the line it changes, before and after, shown for a survivor. */
  diff?: { before: string; after: string };
  /** For a generated mutant: the first and last line (1-based) of the span it changes. */
  lines?: [number, number];
}

export interface GeneratedPlan {
  jobs: Job[];
  notes: string[];
}

export class PlanError extends Error {}

export interface PlanOptions {
  sample?: number;
  seed: number;
  /** Per mutant test paths, instead of the import graph (`--all-tests`). */
  tests?: string[];
}

const LIB_DEFAULT = "lib";

/** `files` relative to `root` (or absolute); none means every .ts file under lib/. */
export function planGenerated(root: string, files: string[], options: PlanOptions): GeneratedPlan {
  const chosen = files.length ? files.map((f) => path.relative(root, path.resolve(root, f))) : libFiles(root);
  const missing = chosen.filter((f) => !isFile(path.join(root, f)));
  if (missing.length) throw new PlanError(`no such file: ${missing.join(", ")}`);
  const notes: string[] = [];
  const texts = new Map(chosen.map((f) => [f, Deno.readTextFileSync(path.join(root, f))]));
  const typed = typedSources(chosen.map((f) => path.join(root, f)));
  const all: GeneratedMutant[] = [];
  for (const file of chosen) {
    const mutants = generateMutants(
      file,
      texts.get(file)!,
      typed.source(path.join(root, file)),
      typed.sameType,
    );
    if (!mutants.length) {
      notes.push(
        `${file}: no mutable spot (no comparison, condition, &&/||, bound, early exit, same-type arguments or string)`,
      );
    }
    all.push(...mutants);
  }
  const { unique, duplicates } = dedupe(all, (f) => texts.get(f)!);
  if (duplicates.length) {
    notes.push(
      `dropped ${duplicates.length} duplicate mutant${duplicates.length === 1 ? "" : "s"} ` +
        `(same mutated text as another): ${duplicates.map((m) => m.id).join(", ")}`,
    );
  }
  let picked = unique;
  if (options.sample !== undefined) {
    if (options.sample >= unique.length) {
      notes.push(`--sample ${options.sample}: only ${unique.length} distinct mutants, running all of them`);
    } else {
      picked = sample(unique, options.sample, options.seed);
      notes.push(`sampled ${picked.length} of ${unique.length} distinct mutants with --seed ${options.seed}`);
    }
  } else notes.push(`${unique.length} distinct mutants from ${chosen.length} file(s)`);

  const graph = options.tests ? null : new TestGraph(root);
  const testsByFile = new Map<string, string[]>();
  for (const file of new Set(picked.map((m) => m.file))) {
    if (options.tests) {
      testsByFile.set(file, options.tests);
      continue;
    }
    const { near, far } = graph!.testsOf(file);
    if (near.length) {
      notes.push(
        `${file}: ${near.length} test file(s) import it (its folder's tests, direct importers): ${
          near.join(" ")
        }`,
      );
    } else if (far.length) {
      notes.push(`${file}: no test of its folder imports it; running the ${far.length} that reach it`);
    } else notes.push(`${file}: no test imports it, running every unit test (tests/)`);
    testsByFile.set(file, near.length ? near : far.length ? far : ["tests/"]);
  }
  const jobs = picked.map((m): Job => {
    const text = texts.get(m.file)!;
    const lineStart = text.lastIndexOf("\n", m.start - 1) + 1;
    const lineEnd = endOfLine(text, m.end);
    const after = applyGenerated(text, m);
    return {
      id: m.id,
      file: m.file,
      why: `${m.operator}: ${short(m.original)} → ${short(m.replace)}`,
      tests: testsByFile.get(m.file)!,
      apply: (content) => applyGenerated(content, m),
      lines: [m.line, m.line + (m.original.match(/\n/g)?.length ?? 0)],
      diff: {
        before: text.slice(lineStart, lineEnd).trim(),
        after: after.slice(lineStart, endOfLine(after, m.start + m.replace.length)).trim(),
      },
    };
  });
  return { jobs, notes };
}

function endOfLine(text: string, from: number): number {
  const at = text.indexOf("\n", from);
  return at === -1 ? text.length : at;
}

function short(code: string): string {
  const flat = code.replace(/\s+/g, " ");
  return JSON.stringify(flat.length > 60 ? `${flat.slice(0, 57)}...` : flat);
}

function libFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (
      const entry of [...Deno.readDirSync(path.join(root, dir))].sort((a, b) => a.name.localeCompare(b.name))
    ) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory) walk(rel);
      // Generated data (the TOML editor's WebAssembly, built-in parameters) is no hand-written logic.
      else if (entry.isFile && /\.tsx?$/.test(entry.name) && !/\.(?:d|generated)\.ts$/.test(entry.name)) {
        out.push(rel);
      }
    }
  };
  walk(LIB_DEFAULT);
  return out;
}

function isFile(file: string): boolean {
  try {
    return Deno.statSync(file).isFile;
  } catch {
    return false;
  }
}
