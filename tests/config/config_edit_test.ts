import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { applyConfigEdits, ConfigEditError, removeKey, setKey } from "../../lib/config/config_edit.ts";
import { loadTomlEditor } from "../../lib/config/toml_editor.ts";
import { TOML_EDIT_WASM_SHA256 } from "../../lib/config/_toml_edit_wasm.generated.ts";

const editor = await loadTomlEditor();

Deno.test("applyConfigEdits() checks each result: a header-like line in a string is never edited (#13)", () => {
  // The package panics adding a table's first key when the table holds only sub-tables; the
  // fallback tries each `[a]` line, and only the real header's result parses to the intended document.
  const text = '[a]\n\n[a.x]\nnote = """\n[a]\n"""\n';
  const out = applyConfigEdits(editor, text, [setKey(["a", "z"], false)]);
  assert.deepStrictEqual(out, '[a]\nz = false\n\n[a.x]\nnote = """\n[a]\n"""\n');
  assert.deepStrictEqual(JSON.parse(JSON.stringify(parseToml(out))), {
    a: { z: false, x: { note: "[a]\n" } },
  });
});

Deno.test("applyConfigEdits() refuses a key the editor cannot address, naming it (#13)", () => {
  assert.throws(
    () => applyConfigEdits(editor, "", [setKey(["projects", '/x"y.z', "trust_level"], "trusted")]),
    (error) => error instanceof ConfigEditError && /projects\."\/x\\"y\.z"\.trust_level/.test(error.message),
  );
  assert.throws(
    () => applyConfigEdits(editor, "mcp_servers = 1\n", [setKey(["mcp_servers", "x", "command"], "y")]),
    /mcp_servers is a number, not a table/,
  );
});

Deno.test("applyConfigEdits() keeps CRLF line ends and a byte-order mark (#13)", () => {
  const out = applyConfigEdits(editor, "\ufeff# c\r\n[a]\r\nx = 1\r\n", [setKey(["a", "y"], 2)]);
  assert.deepStrictEqual(out, "\ufeff# c\r\n[a]\r\nx = 1\r\ny = 2\r\n");
});

Deno.test("the inlined toml_edit WebAssembly is the installed package's (deno task gen refreshes it)", async () => {
  const wasm = await Deno.readFile(
    new URL("../../node_modules/@rainbowatcher/toml-edit-js/index_bg.wasm", import.meta.url),
  );
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", wasm));
  assert.deepStrictEqual(
    Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""),
    TOML_EDIT_WASM_SHA256,
  );
});

Deno.test("applyConfigEdits() sets and removes a top-level key beside the file's comments and tables (import codex, #21 item 8)", () => {
  const text = '# mine\n[mcp_servers.x]\ncommand = "k"\n';
  const added = applyConfigEdits(editor, text, [
    setKey(["model"], "o3"),
    setKey(["model_reasoning_effort"], "high"),
  ]);
  assert.deepStrictEqual(
    added,
    '# mine\nmodel = "o3"\nmodel_reasoning_effort = "high"\n[mcp_servers.x]\ncommand = "k"\n',
  );
  // Replaced where it stands; a key of the same name inside a table is not the top-level one.
  const replaced = applyConfigEdits(editor, 'model = "a"\n[profiles.p]\nmodel = "b"\n', [
    setKey(["model"], "c"),
  ]);
  assert.deepStrictEqual(replaced, 'model = "c"\n[profiles.p]\nmodel = "b"\n');
  const removed = applyConfigEdits(editor, 'model = "a"\nx = 1\n[t]\nmodel = "b"\n', [removeKey(["model"])]);
  assert.deepStrictEqual(removed, 'x = 1\n[t]\nmodel = "b"\n');
  assert.deepStrictEqual(applyConfigEdits(editor, "", [setKey(["model"], "o3")]), 'model = "o3"\n');
});
