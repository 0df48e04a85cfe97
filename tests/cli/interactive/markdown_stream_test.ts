// deno-lint-ignore-file no-control-regex
import assert from "node:assert/strict";
import { MarkdownStream } from "../../../lib/cli/interactive/markdown_stream.ts";
import { loadMarkdownLibraries } from "../../../lib/cli/interactive/markdown_libraries.ts";
import { codeBlock, renderLine, renderMarkdown } from "../../../lib/cli/interactive/markdown_render.ts";
import { glyphs, palette } from "../../../lib/cli/interactive/style.ts";

async function renderStreamed(
  text: string,
  chunk: number,
  options: { color?: boolean; width?: number } = {},
) {
  const caps = { color: options.color ?? false, unicode: true };
  const colors = palette(caps);
  const libs = await loadMarkdownLibraries(colors, caps.color);
  const o = { width: options.width ?? 60, colors, glyphs: glyphs(caps) };
  const out: string[] = [];
  const emits: number[] = [];
  const stream = new MarkdownStream({
    render: (md) => md.includes("\n") ? renderMarkdown(md, libs, o) : renderLine(md, libs, o),
    renderCode: (code, lang, first) => codeBlock(code, lang, libs, o, first),
    emit: (lines) => {
      out.push(...lines);
      emits.push(lines.length);
    },
  });
  for (let i = 0; i < text.length; i += chunk) stream.push(text.slice(i, i + chunk));
  const pendingBeforeFinish = stream.pending();
  stream.finish();
  return { out, emits, pendingBeforeFinish };
}

const SAMPLE =
  "# Title\n\nSome **bold** and *em* and `code`.\n\n1. one\n2. two\n   - nested\n\n```js\nlet a = 1;\nlet b = 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\nlast line without newline";

Deno.test("MarkdownStream renders the same lines whatever the chunking", async () => {
  const whole = await renderStreamed(SAMPLE, SAMPLE.length);
  for (const chunk of [1, 3, 17]) assert.deepEqual((await renderStreamed(SAMPLE, chunk)).out, whole.out);
  assert.deepEqual(whole.out, [
    "Title",
    "",
    "Some bold and em and code.",
    "",
    "1. one",
    "2. two",
    "   • nested",
    "",
    "  js",
    "  let a = 1;",
    "  let b = 2;",
    "",
    "a  b",
    "─  ─",
    "1  2",
    "",
    "│ quoted",
    "",
    "last line without newline",
  ]);
});

Deno.test("MarkdownStream commits each complete line at once and holds only the unfinished one", async () => {
  const { pendingBeforeFinish, emits } = await renderStreamed("alpha\nbeta\ngam", 1);
  assert.equal(pendingBeforeFinish, "gam");
  assert.deepEqual(emits, [1, 1, 1]);
});

Deno.test("MarkdownStream holds a code block until it closes, then colours it as a whole", async () => {
  const text = "```ts\n/* a\n   b */\nconst x = 'y';\n```\n";
  const { out } = await renderStreamed(text, 2, { color: true });
  assert.equal(out.length, 4);
  assert.match(out[1], /\x1b\[90m\/\* a\x1b\[39m/, "a comment spanning lines is coloured on each line");
  assert.match(out[2], /\x1b\[90m {3}b \*\/\x1b\[39m/);
  assert.match(out[3], /\x1b\[35mconst\x1b\[39m/);
});

Deno.test("MarkdownStream wraps paragraphs to the width", async () => {
  const { out } = await renderStreamed("word ".repeat(30).trim() + "\n", 7, { width: 40 });
  assert.ok(out.length >= 4);
  assert.ok(out.every((line) => line.length <= 40));
});

Deno.test("renderLine() gives what marked's block lexer gives for each common line shape", async () => {
  for (const color of [false, true]) {
    const caps = { color, unicode: true };
    const colors = palette(caps);
    const libs = await loadMarkdownLibraries(colors, color);
    const o = { width: 30, colors, glyphs: glyphs(caps) };
    for (
      const line of [
        "# Title with `code`",
        "### Third *level* ###",
        "- item with **bold** and a [link](https://x.io)",
        "* star item",
        "+ plus item that is long enough to wrap around the narrow width",
        "- [x] done task",
        "- [ ] open task",
        "12. twelfth",
        "3) paren",
        "> quoted _text_",
        "---",
        "* * *",
        "plain paragraph with ~~strike~~ and <b>html</b> and &amp; entity",
        "a line long enough to be wrapped by the renderer at thirty columns",
      ]
    ) {
      assert.deepEqual(renderLine(line, libs, o), renderMarkdown(line, libs, o), line);
    }
  }
});
