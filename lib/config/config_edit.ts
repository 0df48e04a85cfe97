import { parse as parseToml } from "smol-toml";
import { formatKeyPath, isTable } from "./merge.ts";
import { TomlEditError, type TomlEditor, type TomlValue } from "./toml_editor.ts";

/**
 * One intended change to a config document: set a key (tables created as needed), or remove a key or
 * table — with `prune`, the tables it leaves empty go too (down to the second level).
 */
export type ConfigEdit =
  | { op: "set"; path: string[]; value: TomlValue }
  | { op: "remove"; path: string[]; prune?: boolean };

export const setKey = (path: string[], value: TomlValue): ConfigEdit => ({ op: "set", path, value });
export const removeKey = (path: string[], options: { prune?: boolean } = {}): ConfigEdit => ({
  op: "remove",
  path,
  prune: options.prune,
});

export type TomlTable = Record<string, unknown>;

/** The edit was refused: the document is left as it was. `keyPath` names the key it was about. */
export class ConfigEditError extends Error {
  constructor(message: string, readonly keyPath: string[]) {
    super(message);
    this.name = "ConfigEditError";
  }
}

/**
 * Applies `edits` to `text` with the format-preserving editor. After each edit the text is parsed
 * again by a second parser and must equal the intended document — the edited key holds its new value
 * and nothing else changed — or nothing is returned at all.
 */
export function applyConfigEdits(editor: TomlEditor, text: string, edits: ConfigEdit[]): string {
  let doc = parseDocument(text);
  for (const edit of edits) {
    for (const step of expand(doc, edit)) {
      const expected = applyToDocument(doc, step);
      if (expected === doc) continue;
      text = editOnce(editor, text, doc, step, expected);
      doc = expected;
    }
  }
  return text;
}

/** A remove with `prune` is the remove plus one remove per table it leaves empty, deepest first. */
function expand(doc: TomlTable, edit: ConfigEdit): ConfigEdit[] {
  if (edit.op === "set" || !edit.prune) return [edit];
  const steps: ConfigEdit[] = [{ op: "remove", path: edit.path }];
  let after = applyToDocument(doc, steps[0]);
  for (let depth = edit.path.length - 1; depth >= 2; depth--) {
    const parent = lookup(after, edit.path.slice(0, depth));
    if (!isTable(parent) || Object.keys(parent).length > 0) break;
    steps.push({ op: "remove", path: edit.path.slice(0, depth) });
    after = applyToDocument(after, steps.at(-1)!);
  }
  return steps;
}

function editOnce(editor: TomlEditor, text: string, doc: TomlTable, edit: ConfigEdit, expected: TomlTable) {
  checkTablePath(doc, edit);
  let out: string;
  try {
    out = editor.edit(text, edit.path, edit.op === "set" ? edit.value : undefined);
  } catch (error) {
    if (!(error instanceof TomlEditError)) throw error;
    throw new ConfigEditError(`Cannot edit ${formatKeyPath(edit.path)}: ${error.message}`, edit.path);
  }
  const difference = differenceFrom(expected, out);
  if (difference !== undefined) {
    throw new ConfigEditError(
      `Cannot edit ${formatKeyPath(edit.path)}: the result would ${difference}; nothing was written`,
      edit.path,
    );
  }
  if (edit.op !== "set") return out;
  const tidy = withoutAddedParentHeaders(text, out, doc, edit.path);
  return tidy !== out && differenceFrom(expected, tidy) === undefined ? tidy : out;
}

/** A set needs every table on its way to be a table (the editor would fail on a string or array). */
function checkTablePath(doc: TomlTable, edit: ConfigEdit): void {
  let node: unknown = doc;
  for (let i = 0; i < edit.path.length - 1; i++) {
    node = (node as TomlTable)[edit.path[i]];
    if (node === undefined) return;
    if (!isTable(node)) {
      const what = Array.isArray(node) ? "an array" : `a ${typeof node}`;
      throw new ConfigEditError(
        `Cannot edit ${formatKeyPath(edit.path)}: ${
          formatKeyPath(edit.path.slice(0, i + 1))
        } is ${what}, not a table`,
        edit.path,
      );
    }
  }
}

/**
 * toml_edit writes a new table's missing parents as empty `[parent]` headers; Codex (and a person)
 * leave them implicit. The header lines the edit added for tables that did not exist are dropped,
 * with the blank line after each; the caller keeps the result only if it still parses the same.
 */
function withoutAddedParentHeaders(before: string, after: string, doc: TomlTable, path: string[]): string {
  const created: string[] = [];
  for (let depth = 1; depth < path.length - 1; depth++) {
    if (lookup(doc, path.slice(0, depth)) === undefined) created.push(JSON.stringify(path.slice(0, depth)));
  }
  if (created.length === 0) return after;
  const old = new Set(before.split(/\r?\n/));
  const lines = after.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].replace(/\r$/, "");
    if (!line.startsWith("[") || line.startsWith("[[") || old.has(line)) continue;
    const headerPath = tablePathOfHeader(line);
    if (headerPath && created.includes(JSON.stringify(headerPath))) {
      lines.splice(i, lines[i + 1]?.replace(/\r$/, "") === "" ? 2 : 1);
    }
  }
  return lines.join("\n");
}

function tablePathOfHeader(line: string): string[] | undefined {
  try {
    const path: string[] = [];
    let node: unknown = parseToml(line);
    while (isTable(node) && Object.keys(node).length === 1) {
      const [key, value] = Object.entries(node)[0];
      path.push(key);
      node = value;
    }
    return isTable(node) && Object.keys(node).length === 0 ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The document `doc` would become: a new object; `doc` itself when the edit changes nothing. */
export function applyToDocument(doc: TomlTable, edit: ConfigEdit): TomlTable {
  const parents = edit.path.slice(0, -1);
  const key = edit.path.at(-1)!;
  if (edit.op === "remove") {
    const parent = lookup(doc, parents);
    if (!isTable(parent) || !Object.hasOwn(parent, key)) return doc;
  }
  const next = clone(doc) as TomlTable;
  let node = next;
  for (const part of parents) {
    if (!isTable(node[part])) put(node, part, {});
    node = node[part] as TomlTable;
  }
  if (edit.op === "set") put(node, key, clone(edit.value));
  else delete node[key];
  return next;
}

/** Copies tables and arrays; leaves (dates included, which structuredClone would demote) are shared. */
function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (!isTable(value)) return value;
  const copy: TomlTable = {};
  for (const [key, item] of Object.entries(value)) put(copy, key, clone(item));
  return copy;
}

/** An own property even for "__proto__" (a valid server name), which `=` would treat as the prototype. */
function put(table: TomlTable, key: string, value: unknown): void {
  Object.defineProperty(table, key, { value, enumerable: true, writable: true, configurable: true });
}

export function lookup(doc: TomlTable, path: string[]): unknown {
  let node: unknown = doc;
  for (const part of path) {
    if (!isTable(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/** Parses a document for comparison: integers too large for a number stay exact (bigint). */
export function parseDocument(text: string): TomlTable {
  return parseToml(text.replace(/^\ufeff/, ""), { integersAsBigInt: "asNeeded" }) as TomlTable;
}

/** Undefined when `text` parses to `expected`; else what differs, in words. */
function differenceFrom(expected: TomlTable, text: string): string | undefined {
  let actual: TomlTable;
  try {
    actual = parseDocument(text);
  } catch (error) {
    return `not be valid TOML (${(error as Error).message.split("\n")[0]})`;
  }
  const where = firstDifference(expected, actual, []);
  return where === undefined ? undefined : `also change ${formatKeyPath(where) || "the document"}`;
}

/** The first key path at which the two documents differ, or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, at: string[]): string[] | undefined {
  if (isTable(a) && isTable(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], [...at, key]);
      if (found) return found;
    }
    return undefined;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return at;
    for (let i = 0; i < a.length; i++) {
      if (firstDifference(a[i], b[i], at) !== undefined) return at;
    }
    return undefined;
  }
  if (a instanceof Date && b instanceof Date) {
    return a.constructor === b.constructor && a.toISOString() === b.toISOString() ? undefined : at;
  }
  return Object.is(a, b) || (typeof a === "number" && a === b) ? undefined : at;
}
