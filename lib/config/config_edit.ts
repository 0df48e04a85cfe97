import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
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
      ({ text, doc } = editOnce(editor, text, doc, step, expected));
    }
  }
  return text;
}

/**
 * A remove with `prune` is the remove plus one remove per table it leaves empty, deepest first. A set
 * that replaces a table removes it first: toml_edit writes a value over a `[table]` as `key=\n[…]`.
 */
function expand(doc: TomlTable, edit: ConfigEdit): ConfigEdit[] {
  if (edit.op === "set") {
    return isTable(lookup(doc, edit.path)) ? [{ op: "remove", path: edit.path }, edit] : [edit];
  }
  if (!edit.prune) return [edit];
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

function editOnce(
  editor: TomlEditor,
  text: string,
  doc: TomlTable,
  edit: ConfigEdit,
  expected: TomlTable,
): { text: string; doc: TomlTable } {
  checkTablePath(doc, edit);
  const out = editText(editor, text, edit, expected);
  const outcomes = edit.op === "set" ? [expected] : withVanishedParents(expected, edit.path);
  const checked = matchOutcome(outcomes, out);
  if ("difference" in checked) {
    throw new ConfigEditError(
      `Cannot edit ${formatKeyPath(edit.path)}: the result would ${checked.difference}; nothing was written`,
      edit.path,
    );
  }
  if (edit.op !== "set") {
    const kept = keepDetachedComments(text, out);
    return kept !== out && "doc" in matchOutcome(outcomes, kept)
      ? { text: kept, doc: checked.doc }
      : { text: out, doc: checked.doc };
  }
  const tidy = withoutAddedParentHeaders(text, out, doc, edit.path);
  const tidied = tidy === out ? checked : matchOutcome(outcomes, tidy);
  return "doc" in tidied ? { text: tidy, doc: tidied.doc } : { text: out, doc: checked.doc };
}

/**
 * The package walks only standard tables on its way to a key's parent, so a key deeper inside an
 * inline table (`mcp_servers = { docs = { command = "x" } }`) is reached by setting the inline
 * table's child to its new value as a whole: the deepest such prefix that the package accepts.
 */
function editText(editor: TomlEditor, text: string, edit: ConfigEdit, expected: TomlTable): string {
  // A file of comments only (a template, a note): toml_edit would put the new table above them.
  if (edit.op === "set" && text.trim() !== "" && Object.keys(parseDocument(text)).length === 0) {
    return `${text.replace(/\s*$/, "\n\n")}${editor.edit("", edit.path, edit.value)}`;
  }
  if (edit.path.length === 1 && !isTable(edit.op === "set" ? edit.value : undefined)) {
    return editTopLevelLine(text, edit);
  }
  let first: TomlEditError | undefined;
  for (let length = edit.path.length; length >= 2; length--) {
    const prefix = edit.path.slice(0, length);
    const value = length === edit.path.length && edit.op === "set" ? edit.value : lookup(expected, prefix);
    try {
      return editor.edit(text, prefix, value as TomlValue | undefined);
    } catch (error) {
      if (!(error instanceof TomlEditError)) throw error;
      first ??= error;
      if (error.panicked && edit.op === "set") {
        const inserted = firstKeyOfTable(text, edit.path, edit.value, expected);
        if (inserted !== undefined) return inserted;
      }
      if (!/not a table/.test(error.message)) break;
    }
  }
  throw new ConfigEditError(`Cannot edit ${formatKeyPath(edit.path)}: ${first!.message}`, edit.path);
}

/**
 * A top-level scalar or array (`model = "o3"`, from `import codex`): the package addresses only keys
 * inside tables, so its line is written here — replaced where it stands (a one-line value before the
 * first table), else added at the top, after the file's leading comments; removed likewise. The
 * caller re-parses the result and checks that exactly this key changed, as for every edit.
 */
function editTopLevelLine(text: string, edit: ConfigEdit): string {
  const key = edit.path[0];
  const lines = text.split("\n");
  const firstTable = lines.findIndex((l) => /^\s*\[/.test(l));
  const head = firstTable === -1 ? lines.length : firstTable;
  const bare = /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
  const at = lines.slice(0, head).findIndex((l) => {
    const m = /^\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)\s*=/.exec(l);
    return m !== null && (m[1] === bare || m[1] === JSON.stringify(key));
  });
  if (edit.op === "remove") {
    if (at !== -1) lines.splice(at, 1);
    return lines.join("\n");
  }
  const line = stringifyToml({ [key]: edit.value }).trimEnd();
  if (at !== -1) lines[at] = line;
  else {
    // After the last top-level key (in the order written), else after the leading comment lines.
    const keyLine = /^\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_.-]+)\s*=/;
    let insert = lines.slice(0, head).findLastIndex((l) => keyLine.test(l)) + 1;
    if (insert === 0) {
      while (insert < head && /^\s*#/.test(lines[insert])) insert++;
    }
    lines.splice(insert, 0, line);
  }
  return lines.join("\n");
}

/**
 * toml_edit removes an item with all the comment lines above it. Those separated from the item by a
 * blank line were about something else (the file, the section before) and are put back: a removed
 * `[mcp_servers.docs]` takes `# docs server` with it, never the file's `# My config` header.
 */
export function keepDetachedComments(before: string, after: string): string {
  let start = 0;
  while (start < after.length && before[start] === after[start]) start++;
  start = before.lastIndexOf("\n", start - 1) + 1;
  let end = 0;
  while (end < after.length - start && before.at(-1 - end) === after.at(-1 - end)) end++;
  const removed = before.slice(start, before.length - end);
  const cut = removed.lastIndexOf("\n") + 1;
  const lines = removed.slice(0, cut).split("\n").slice(0, -1);
  const itemStart = lines.findIndex((l) => l.trim() !== "" && !l.trim().startsWith("#"));
  const preamble = itemStart < 0 ? lines : lines.slice(0, itemStart);
  const lastBlank = preamble.findLastIndex((l) => l.trim() === "");
  if (lastBlank < 0 || !preamble.slice(0, lastBlank).some((l) => l.trim().startsWith("#"))) return after;
  const rest = after.slice(start);
  // One blank line between the put-back comments and what follows, not two.
  const keep = /^\r?\n/.test(rest) ? lastBlank : lastBlank + 1;
  const detached = preamble.slice(0, keep).map((l) => l + "\n").join("");
  return after.slice(0, start) + detached + rest;
}

/**
 * toml-edit-js 0.6.5 panics when it adds the first key to a table that holds only sub-tables
 * (`[plugins."x@y".mcp_servers.s]` alone, then `plugin disable x@y`). The key then goes right under
 * the table's own `[header]` line, or — for a table only implied by its sub-tables — under a new
 * header at the end (TOML allows a super-table after its sub-tables). The line is written by the
 * package's own serializer; of the places tried, the first whose result parses exactly to the
 * intended document is kept (a header-like line inside a multi-line string fails that check).
 */
function firstKeyOfTable(
  text: string,
  path: string[],
  value: TomlValue,
  expected: TomlTable,
): string | undefined {
  const table = path.slice(0, -1);
  const line = serializeKeyValue(path.at(-1)!, value);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  const candidates: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const header = tablePathOfHeader(lines[i].trim());
    if (header && JSON.stringify(header) === JSON.stringify(table)) {
      candidates.push([...lines.slice(0, i + 1), line, ...lines.slice(i + 1)].join(eol));
    }
  }
  const body = text.length === 0 || /\n$/.test(text) ? text : text + eol;
  candidates.push(`${body}${eol}[${table.map(formatKey).join(".")}]${eol}${line}${eol}`);
  return candidates.find((c) => "doc" in matchOutcome([expected], c));
}

/** `key = value` as TOML: a bare key when it can be, else a basic string with escapes. */
function serializeKeyValue(key: string, value: TomlValue): string {
  return `${formatKey(key)} = ${formatValue(value)}`;
}

export function formatKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : basicString(key);
}

function formatValue(value: TomlValue): string {
  if (typeof value === "string") return basicString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(", ")}]`;
  const entries = Object.entries(value).map(([k, v]) => `${formatKey(k)} = ${formatValue(v)}`);
  return entries.length ? `{ ${entries.join(", ")} }` : "{}";
}

/** A TOML basic string: `"` and `\\` escaped, every control character (U+007F too) as \uXXXX. */
function basicString(value: string): string {
  const escaped = value.replace(
    // deno-lint-ignore no-control-regex -- TOML requires exactly these to be escaped
    /[\\"\u0000-\u001f\u007f]/g,
    (c) =>
      c === "\\" || c === '"'
        ? `\\${c}`
        : `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
  );
  return `"${escaped}"`;
}

/**
 * What a remove may leave: the document without the key, and — since a table that was only implied
 * by its children (`[a.b.c]` implies `a` and `a.b`) is gone once they are — the same without each
 * parent the remove left empty, deepest first.
 */
function withVanishedParents(expected: TomlTable, path: string[]): TomlTable[] {
  const outcomes = [expected];
  for (let depth = path.length - 1; depth >= 1; depth--) {
    const parent = lookup(outcomes.at(-1)!, path.slice(0, depth));
    if (!isTable(parent) || Object.keys(parent).length > 0) break;
    outcomes.push(applyToDocument(outcomes.at(-1)!, { op: "remove", path: path.slice(0, depth) }));
  }
  return outcomes;
}

function matchOutcome(outcomes: TomlTable[], text: string): { doc: TomlTable } | { difference: string } {
  let actual: TomlTable;
  try {
    actual = parseDocument(text);
  } catch (error) {
    return { difference: `not be valid TOML (${(error as Error).message.split("\n")[0]})` };
  }
  if (outcomes.some((o) => firstDifference(o, actual, []) === undefined)) return { doc: actual };
  const where = firstDifference(outcomes[0], actual, []) ?? [];
  return { difference: `also change ${formatKeyPath(where) || "the document"}` };
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
