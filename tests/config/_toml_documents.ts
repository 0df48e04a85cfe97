// deno-lint-ignore-file no-control-regex -- TOML strings: control characters are what must be escaped
/**
 * Random TOML documents for property tests: a random tree of tables and values, written out in a
 * random mix of the styles real configs use — `[a.b]` headers, dotted keys, inline tables, basic,
 * literal and multi-line strings (some holding text that looks like a table header), comments.
 */
import fc from "fast-check";

export type Leaf = string | number | boolean | Leaf[];
export interface Tree {
  [key: string]: Leaf | Tree;
}

const isTree = (v: unknown): v is Tree => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keys a config really holds: bare words, paths with dots and spaces, quotes, U+007F, unicode. */
export const keyArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("docs", "model", "command", "enabled", "a", "b", "x_y", "k-1") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "/home/me/repo.v2",
      "a b",
      "é",
      "x\u007fy",
      'say "hi"',
      "it's",
      "",
      "[x]",
      "#",
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);

const stringArb = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    'line1\n[mcp_servers.docs]\ncommand = "fake"\n',
    'quote " and \\ back',
    "tab\there",
    "x\u007f",
  ),
);

export const leafArb: fc.Arbitrary<Leaf> = fc.oneof(
  stringArb,
  fc.integer({ min: -1000, max: 1000 }),
  fc.boolean(),
  fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: 0, max: 9 })).map((x) => x as Leaf), {
    maxLength: 3,
  }),
);

export const treeArb: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.dictionary(
    keyArb,
    fc.oneof({ depthSize: "small", withCrossShrink: true }, leafArb, tie("tree")),
    { maxKeys: 4, noNullPrototype: true },
  ),
})).tree;

type Style = "header" | "dotted" | "inline";

/** Writes `tree` as TOML; `choose` picks a style for each table and each string (its own PRNG). */
export function renderToml(tree: Tree, choose: () => number): string {
  const out: string[] = ["# generated config", ""];
  renderTable(tree, [], out, choose);
  return out.join("\n") + "\n";
}

function renderTable(table: Tree, path: string[], out: string[], choose: () => number): void {
  const later: [string, Tree][] = [];
  for (const [key, value] of Object.entries(table)) {
    if (!isTree(value)) {
      out.push(`${formatKey(key)} = ${formatLeaf(value, choose)}${choose() < 0.2 ? " # note" : ""}`);
      continue;
    }
    const style: Style = Object.keys(value).length === 0
      ? (choose() < 0.5 ? "inline" : "header")
      : (["header", "dotted", "inline"] as const)[Math.floor(choose() * 3)];
    if (style === "inline") out.push(`${formatKey(key)} = ${formatInline(value, choose)}`);
    else if (style === "dotted") renderDotted(value, [key], out, choose);
    else later.push([key, value]);
  }
  for (const [key, value] of later) {
    out.push("");
    if (choose() < 0.4) out.push("# about the next table");
    out.push(`[${[...path, key].map(formatKey).join(".")}]`);
    renderTable(value, [...path, key], out, choose);
  }
}

function renderDotted(table: Tree, prefix: string[], out: string[], choose: () => number): void {
  for (const [key, value] of Object.entries(table)) {
    const keyPath = [...prefix, key].map(formatKey).join(".");
    if (!isTree(value)) out.push(`${keyPath} = ${formatLeaf(value, choose)}`);
    else if (Object.keys(value).length === 0 || choose() < 0.3) {
      out.push(`${keyPath} = ${formatInline(value, choose)}`);
    } else renderDotted(value, [...prefix, key], out, choose);
  }
}

function formatInline(table: Tree, choose: () => number): string {
  const parts = Object.entries(table).map(([k, v]) =>
    `${formatKey(k)} = ${isTree(v) ? formatInline(v, choose) : formatLeaf(v, choose, true)}`
  );
  return parts.length ? `{ ${parts.join(", ")} }` : "{}";
}

function formatLeaf(value: Leaf, choose: () => number, inline = false): string {
  if (typeof value === "string") return formatString(value, choose, inline);
  if (Array.isArray(value)) return `[${value.map((v) => formatLeaf(v, choose, true)).join(", ")}]`;
  return String(value);
}

function formatString(value: string, choose: () => number, inline: boolean): string {
  const roll = choose();
  if (roll < 0.3 && !/['\n\r\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) return `'${value}'`;
  if (roll < 0.6 && !inline && !value.includes("\r")) {
    return `"""\n${
      value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(
        /[\u0000-\u0008\u000b-\u001f\u007f]/g,
        unicodeEscape,
      )
    }"""`;
  }
  return basicString(value);
}

export function formatKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : basicString(key);
}

function basicString(value: string): string {
  return `"${
    value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/[\u0000-\u001f\u007f]/g, unicodeEscape)
  }"`;
}

const unicodeEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Every table path in the tree (the root too), for choosing where an edit lands. */
export function tablePaths(tree: Tree, at: string[] = []): string[][] {
  const paths = [at];
  for (const [key, value] of Object.entries(tree)) {
    if (isTree(value)) paths.push(...tablePaths(value, [...at, key]));
  }
  return paths;
}

/** Every leaf (and empty table) with its key path, for "nothing else changed". */
export function leaves(node: unknown, at: string[] = []): [string[], unknown][] {
  if (!isTree(node) || (Object.keys(node).length === 0 && at.length > 0)) return [[at, node]];
  return Object.entries(node).flatMap(([key, value]) => leaves(value, [...at, key]));
}
