import assert from "node:assert/strict";
import stringWidth from "string-width";
import { loadMarkdownLibraries } from "../../../lib/cli/interactive/markdown_libraries.ts";
import { columnWidths, renderMarkdown } from "../../../lib/cli/interactive/markdown_render.ts";
import { glyphs, palette } from "../../../lib/cli/interactive/style.ts";

async function render(markdown: string, width: number, color = false) {
  const caps = { color, unicode: true };
  const colors = palette(caps);
  const libs = await loadMarkdownLibraries(colors, color);
  return renderMarkdown(markdown, libs, { width, colors, glyphs: glyphs(caps) });
}

const WIDE = [
  "| flag | what it does | default |",
  "|---|---|---|",
  "| `--sandbox` | chooses how much of the machine a command may touch: read-only, workspace-write or danger-full-access | workspace-write |",
  "| `-m` | the model | gpt-5 |",
].join("\n");

Deno.test("a table wider than the terminal wraps each cell inside its column, words whole when they fit (#21 item 6)", async () => {
  for (const color of [false, true]) {
    for (const width of [50, 40, 24]) {
      const lines = await render(WIDE, width, color);
      for (const line of lines) {
        assert.ok(stringWidth(line) <= width, `${JSON.stringify(line)} is wider than ${width}`);
      }
    }
  }
  assert.deepStrictEqual(await render(WIDE, 50), [
    "flag       what it does            default",
    "─────────  ──────────────────────  ───────────────",
    "--sandbox  chooses how much of     workspace-write",
    "           the machine a command",
    "           may touch: read-only,",
    "           workspace-write or",
    "           danger-full-access",
    "-m         the model               gpt-5",
  ]);
  // Narrower than the longest words, a word is cut, still inside its column.
  assert.deepStrictEqual((await render(WIDE, 40)).slice(0, 4), [
    "flag       what it does    default",
    "─────────  ──────────────  ─────────────",
    "--sandbox  chooses how     workspace-wri",
    "           much of the     te",
  ]);
});

Deno.test("a table that fits keeps its natural column widths, one line a row", async () => {
  assert.deepStrictEqual(await render("| a | bb |\n|---|---|\n| 1 | 2 |", 40), [
    "a  bb",
    "─  ──",
    "1  2",
  ]);
});

Deno.test("columnWidths() keeps narrow columns whole and shares the rest among the wide ones", () => {
  assert.deepStrictEqual(columnWidths([4, 10], 20), [4, 10]);
  assert.deepStrictEqual(columnWidths([4, 100, 100], 40), [4, 18, 18]);
  assert.deepStrictEqual(columnWidths([4, 100, 9], 30), [4, 17, 9]);
  // Past the minimum the terminal wraps: no column is squeezed to nothing.
  assert.deepStrictEqual(columnWidths([50, 50, 50], 6), [6, 6, 6]);
  // With the longest words known, each column gets its longest word first when they all fit.
  assert.deepStrictEqual(columnWidths([9, 103, 15], 46, [9, 18, 15]), [9, 22, 15]);
  assert.deepStrictEqual(columnWidths([9, 103, 15], 36, [9, 18, 15]), [9, 14, 13]);
});
