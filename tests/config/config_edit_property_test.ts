import assert from "node:assert/strict";
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { applyConfigEdits, type ConfigEdit, ConfigEditError } from "../../lib/config/config_edit.ts";
import {
  encodeKeyPath,
  loadTomlEditor,
  TomlEditError,
  type TomlValue,
} from "../../lib/config/toml_editor.ts";
import { keyArb, type Leaf, leafArb, leaves, renderToml, tablePaths, treeArb } from "./_toml_documents.ts";

const editor = await loadTomlEditor();

function addressable(path: string[]): boolean {
  try {
    encodeKeyPath(path);
    return true;
  } catch (error) {
    if (error instanceof TomlEditError) return false;
    throw error;
  }
}

/** smol-toml builds null-prototype tables; compare plain data. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

const under = (path: string[], prefix: string[]) =>
  prefix.length <= path.length && prefix.every((k, i) => path[i] === k);

/** A random config in a random style, and one edit of it: set a key (old or new) or remove one. */
const caseArb = fc.record({
  tree: treeArb,
  seed: fc.integer(),
  pick: fc.nat(),
  key: keyArb,
  value: leafArb,
  remove: fc.boolean(),
})
  .map(({ tree, seed, pick, key, value, remove }) => {
    let state = seed >>> 0;
    const choose = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const text = renderToml(tree, choose);
    let edit: ConfigEdit;
    const existing = leaves(tree).filter(([p]) => p.length >= 2);
    if (remove && existing.length > 0) edit = { op: "remove", path: existing[pick % existing.length][0] };
    else {
      const tables = tablePaths(tree);
      const table = tables[pick % tables.length];
      edit = {
        op: "set",
        path: table.length === 0 ? ["new", key] : [...table, key],
        value: value as TomlValue,
      };
    }
    return { tree, text, edit };
  });

Deno.test("applyConfigEdits(): random configs × random edits keep every other key and land the edit (#13)", () => {
  fc.assert(
    fc.property(caseArb, ({ tree, text, edit }) => {
      assert.deepStrictEqual(plain(parseToml(text)), tree, "the generator wrote what it meant");
      if (!addressable(edit.path)) {
        assert.throws(() => applyConfigEdits(editor, text, [edit]), ConfigEditError);
        return;
      }
      const out = applyConfigEdits(editor, text, [edit]);
      const after = plain(parseToml(out));
      const before = new Map(leaves(tree).map(([p, v]) => [JSON.stringify(p), v]));
      const now = new Map(leaves(after).map(([p, v]) => [JSON.stringify(p), v]));
      // The edited key has its new value (or is gone) …
      let node: unknown = after;
      for (const k of edit.path) node = (node as Record<string, unknown> | undefined)?.[k];
      assert.deepStrictEqual(node, edit.op === "set" ? edit.value as Leaf : undefined);
      // … and every other key is unchanged: same leaves outside the edited path, none added or lost.
      const outside = (m: Map<string, unknown>) =>
        [...m].filter(([p]) => !under(JSON.parse(p), edit.path) && !under(edit.path, JSON.parse(p)))
          .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
      assert.deepStrictEqual(outside(now), outside(before));
      // A comment set apart by a blank line belongs to the file, not to the edited key: it stays.
      assert.ok(out.includes("# generated config\n"), "the file's header comment stays");
    }),
    { numRuns: 400 },
  );
});
