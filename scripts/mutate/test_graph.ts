/**
 * Which tests exercise a file: the test files under tests/ that import it, directly or through
 * any chain of relative imports (a test of `lib/tools/mod.ts` reaches every file that door
 * re-exports). Imports are read with the TypeScript compiler's pre-processor (static imports,
 * re-exports, dynamic `import("…")` with a literal); npm and URL specifiers are leaves. e2e files
 * run the compiled binary and import no lib file, so they are never chosen here.
 */
import * as path from "node:path";
import ts from "typescript";

const TEST_FILE = /(?:_test|\.test)\.(?:ts|tsx|js|mjs)$/;
const SOURCE = /\.(?:ts|tsx|js|mjs)$/;

export class TestGraph {
  #imports = new Map<string, string[]>();
  #closures = new Map<string, Set<string>>();
  #tests: string[];

  constructor(readonly root: string) {
    this.#tests = walk(path.join(root, "tests")).filter((f) => TEST_FILE.test(f) && !f.endsWith(".e2e.ts"));
  }

  /**
   * The tests of `file` (relative or absolute), relative to the root and sorted. `near`: the
   * tests in its folder's mirror (tests/tools/ for lib/tools/x.ts) whose import closure holds it,
   * and any test that imports it directly. `far`: every test whose closure holds it at all (a file
   * of `lib/platform/` is reached by nearly every test, through other folders' doors; running all
   * of those per mutant costs a full suite).
   */
  testsOf(file: string): { near: string[]; far: string[] } {
    const target = path.resolve(this.root, file);
    const parts = path.relative(this.root, target).split(path.sep);
    const mirror = path.join(
      this.root,
      "tests",
      ...(parts[0] === "lib" ? parts.slice(1, -1) : parts.slice(0, -1)),
    );
    const rel = (t: string) => path.relative(this.root, t);
    const far = this.#tests.filter((test) => this.#reaches(test, target));
    const near = far.filter((test) =>
      test.startsWith(mirror + path.sep) || this.#importsOf(test).includes(target)
    );
    return { near: near.map(rel).sort(), far: far.map(rel).sort() };
  }

  #reaches(from: string, target: string): boolean {
    return this.#closureOf(from).has(target);
  }

  /** Every file `from` imports, transitively (computed once per test). */
  #closureOf(from: string): Set<string> {
    const known = this.#closures.get(from);
    if (known) return known;
    const seen = new Set<string>([from]);
    const stack = [from];
    while (stack.length) {
      for (const next of this.#importsOf(stack.pop()!)) {
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    this.#closures.set(from, seen);
    return seen;
  }

  #importsOf(file: string): string[] {
    const known = this.#imports.get(file);
    if (known) return known;
    let text = "";
    try {
      text = Deno.readTextFileSync(file);
    } catch {
      // a missing or unreadable import is a leaf
    }
    const imports = ts.preProcessFile(text, true, true).importedFiles
      .map((f) => f.fileName)
      .filter((s) => s.startsWith("./") || s.startsWith("../"))
      .map((s) => path.resolve(path.dirname(file), s));
    this.#imports.set(file, imports);
    return imports;
  }
}

function walk(dir: string): string[] {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory && entry.name !== "node_modules" && !entry.name.startsWith(".")) {
      out.push(...walk(full));
    } else if (entry.isFile && SOURCE.test(entry.name)) out.push(full);
  }
  return out.sort();
}
