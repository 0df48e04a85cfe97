/**
 * Which names each folder's door (`lib/<folder>/mod.ts`) exports, and which of them something
 * outside that folder imports (#26 item 3: "each folder's mod.ts exports only what another folder
 * imports"). Outside means another lib folder, the library face `mod.ts`, `main.ts`, and the
 * tests, scripts, bench and examples — the door serves all of them. A door's own `@example` blocks
 * import from `./mod.ts` and count as users too (`deno check --doc` compiles them).
 *
 * Read with the TypeScript parser (npm typescript, already a dependency), not regexes: an
 * `import { a as b, type C }` list, `export { x } from`, `export *` and `import * as ns` (whose
 * `ns.name` uses are counted) all have shapes a regex gets wrong.
 */
import ts from "typescript";
import * as path from "node:path";
import { platform } from "../../lib/platform/mod.ts";

export interface DoorExport {
  folder: string;
  name: string;
}

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await platform.fs.readDir(dir);
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory) out.push(...await tsFiles(full));
    else if (/\.(ts|mts|tsx)$/.test(entry.name)) out.push(full);
  }
  return out;
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
}

/** Names a module exports, following `export * from "./x.ts"` within the same folder. */
async function exportedNames(file: string, seen = new Set<string>()): Promise<Set<string>> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const source = parse(file, await platform.fs.readTextFile(file));
  for (const stmt of source.statements) {
    if (ts.isExportDeclaration(stmt)) {
      if (stmt.exportClause && ts.isNamedExports(stmt.exportClause)) {
        for (const el of stmt.exportClause.elements) names.add(el.name.text);
      } else if (!stmt.exportClause && stmt.moduleSpecifier && ts.isStringLiteral(stmt.moduleSpecifier)) {
        const target = path.resolve(path.dirname(file), stmt.moduleSpecifier.text);
        for (const n of await exportedNames(target, seen)) names.add(n);
      }
      continue;
    }
    const mods = ts.canHaveModifiers(stmt) ? ts.getModifiers(stmt) : undefined;
    if (!mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) names.add(d.name.text);
      }
    } else if (
      (ts.isFunctionDeclaration(stmt) || ts.isClassDeclaration(stmt) || ts.isInterfaceDeclaration(stmt) ||
        ts.isTypeAliasDeclaration(stmt) || ts.isEnumDeclaration(stmt)) && stmt.name
    ) {
      names.add(stmt.name.text);
    }
  }
  return names;
}

/** The names `source` takes from the module at `door` (an absolute path). */
function namesTakenFrom(source: ts.SourceFile, file: string, door: string, into: Set<string>): void {
  const namespaces = new Set<string>();
  const resolves = (spec: ts.Expression | undefined) =>
    spec && ts.isStringLiteral(spec) && spec.text.startsWith(".") &&
    path.resolve(path.dirname(file), spec.text) === door;
  for (const stmt of source.statements) {
    if (ts.isImportDeclaration(stmt) && resolves(stmt.moduleSpecifier)) {
      const bindings = stmt.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) into.add((el.propertyName ?? el.name).text);
      } else if (bindings && ts.isNamespaceImport(bindings)) {
        namespaces.add(bindings.name.text);
      }
    } else if (ts.isExportDeclaration(stmt) && resolves(stmt.moduleSpecifier)) {
      if (stmt.exportClause && ts.isNamedExports(stmt.exportClause)) {
        for (const el of stmt.exportClause.elements) into.add((el.propertyName ?? el.name).text);
      } else {
        into.add("*");
      }
    }
  }
  // Dynamic `import("../x/mod.ts")` takes whatever it destructures; count the door wholly used.
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      resolves(node.arguments[0])
    ) {
      into.add("*");
    }
    if (
      namespaces.size > 0 && ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) &&
      namespaces.has(node.expression.text)
    ) {
      into.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** Names in the `@example` blocks of a door that import from "./mod.ts". */
function exampleImports(text: string): string[] {
  return [...text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["']\.\/mod\.ts["']/g)]
    .flatMap((m) => m[1].split(","))
    .map((s) => s.replace(/^\s*\*?\s*type\s+/, "").trim().split(/\s+as\s+/)[0].replace(/^\*\s*/, "").trim())
    .filter((s) => s.length > 0);
}

/** Every name a door exports that nothing outside its folder imports. */
export async function unusedDoorExports(root: string): Promise<DoorExport[]> {
  const lib = path.join(root, "lib");
  const folders = (await platform.fs.readDir(lib)).filter((e) => e.isDirectory).map((e) => e.name).sort();
  const files = [
    ...await tsFiles(lib),
    ...await tsFiles(path.join(root, "tests")),
    ...await tsFiles(path.join(root, "scripts")),
    ...await tsFiles(path.join(root, "bench")),
    ...await tsFiles(path.join(root, "examples")),
    path.join(root, "main.ts"),
    path.join(root, "mod.ts"),
  ];
  const parsed = new Map<string, ts.SourceFile>();
  for (const file of files) {
    try {
      parsed.set(file, parse(file, await platform.fs.readTextFile(file)));
    } catch {
      // a listed file that vanished mid-scan imports nothing
    }
  }
  const unused: DoorExport[] = [];
  for (const folder of folders) {
    const door = path.join(lib, folder, "mod.ts");
    let exported: Set<string>;
    try {
      exported = await exportedNames(door);
    } catch {
      continue;
    }
    const used = new Set<string>(exampleImports(await platform.fs.readTextFile(door)));
    for (const [file, source] of parsed) {
      if (file.startsWith(path.join(lib, folder) + path.sep)) continue;
      namesTakenFrom(source, file, door, used);
    }
    if (used.has("*")) continue;
    for (const name of [...exported].sort()) {
      if (!used.has(name)) unused.push({ folder, name });
    }
  }
  return unused;
}

if (import.meta.main) {
  const rows = await unusedDoorExports(new URL("../..", import.meta.url).pathname);
  for (const r of rows) console.log(`${r.folder}\t${r.name}`);
  console.error(`${rows.length} unused door exports`);
}
