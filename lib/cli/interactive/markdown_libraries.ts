import type { MarkdownLibraries } from "./markdown_render.ts";
import type { Palette } from "./style.ts";

/** Fenced blocks larger than this are shown without colour (highlighting costs ~4 µs a byte here). */
const HIGHLIGHT_MAX_CHARS = 64 * 1024;

/**
 * Loads marked, and highlight.js with its common grammars when colour is on. Dynamic imports of
 * npm packages: only the interactive mode pays for them, after its prompt is shown, so neither
 * `exec --json` nor the time to an idle prompt grows.
 */
export async function loadMarkdownLibraries(colors: Palette, color: boolean): Promise<MarkdownLibraries> {
  const [{ Lexer }, hljs] = await Promise.all([
    import("marked"),
    color ? import("./highlight_grammars.ts").then((m) => m.default) : Promise.resolve(null),
  ]);
  const options = { gfm: true, breaks: false };
  // One lexer for inline runs: `inlineTokens` keeps no state between calls (the block lexer does).
  const inlineLexer = new Lexer(options);
  return {
    lex: (text) => Lexer.lex(text, options),
    lexInline: (text) => inlineLexer.inlineTokens(text),
    highlight(code, language) {
      if (!hljs || code.length > HIGHLIGHT_MAX_CHARS || !hljs.getLanguage(language)) return code;
      try {
        const result = hljs.highlight(code, { language, ignoreIllegals: true });
        const root = (result as { _emitter?: { rootNode?: HighlightNode } })._emitter?.rootNode;
        return root ? treeToAnsi(root, colors) : htmlToAnsi(result.value, colors);
      } catch {
        return code;
      }
    },
  };
}

/** Paint per highlight.js scope, per palette: a token costs a map lookup, not string surgery. */
const PAINTS = new WeakMap<Palette, Map<string, Paint | null>>();

/** highlight.js's token tree (its emitter's `rootNode`): text, or a scope with children. */
type HighlightNode = string | { scope?: string; children: HighlightNode[] };

/**
 * Walks highlight.js's token tree straight to ANSI, skipping the HTML it also builds and a parse
 * of that HTML (measured: 0.5–1.2 s per 210 KB of code for `htmlToAnsi`, most of the cost after
 * highlight.js's own). `htmlToAnsi` stays as the fallback should a release drop the tree.
 */
export function treeToAnsi(root: HighlightNode, colors: Palette): string {
  let out = "";
  let paints = PAINTS.get(colors);
  if (!paints) PAINTS.set(colors, paints = new Map());
  const walk = (node: HighlightNode, paint: Paint | null) => {
    if (typeof node === "string") {
      out += paint && node ? paintLines(node, paint) : node;
      return;
    }
    let own: Paint | null = null;
    if (node.scope) {
      own = paints.get(node.scope) ?? null;
      if (own === null && !paints.has(node.scope)) paints.set(node.scope, own = paintFor(node.scope, colors));
    }
    for (const child of node.children) walk(child, own ?? paint);
  };
  walk(root, null);
  return out;
}

function paintLines(text: string, paint: Paint): string {
  return text.includes("\n")
    ? text.split("\n").map((line) => (line ? paint(line) : line)).join("\n")
    : paint(text);
}

type Paint = (text: string) => string;

/** highlight.js scopes → colours (a subset of its default theme's families). */
function paintFor(scope: string, c: Palette): Paint | null {
  const kind = scope.replace(/^hljs-/, "").split(/[\s_.]/)[0];
  switch (kind) {
    case "keyword":
    case "built_in":
    case "selector-tag":
    case "doctag":
      return c.magenta;
    case "string":
    case "regexp":
    case "addition":
    case "symbol":
      return c.green;
    case "number":
    case "literal":
    case "variable":
    case "template-variable":
      return c.yellow;
    case "comment":
    case "quote":
    case "meta":
      return c.gray;
    case "title":
    case "function":
    case "section":
    case "name":
      return c.blue;
    case "type":
    case "class":
    case "attr":
    case "attribute":
    case "params":
      return c.cyan;
    case "deletion":
      return c.red;
    default:
      return null;
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };

/**
 * highlight.js emits `<span class="hljs-…">` nesting and five entities, nothing else: a stack of
 * paints is enough (cli-highlight parses it with parse5, which with yargs is most of its load time).
 */
export function htmlToAnsi(html: string, colors: Palette): string {
  const stack: (Paint | null)[] = [];
  let out = "";
  const paint = (text: string) => {
    const decoded = text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]);
    const current = stack.findLast((p) => p !== null);
    // Paint line by line, so every terminal line carries its own colour and reset.
    return current ? decoded.split("\n").map((line) => (line ? current(line) : line)).join("\n") : decoded;
  };
  for (const part of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (part.startsWith("<span")) stack.push(paintFor(part.slice(13, -2), colors));
    else if (part === "</span>") stack.pop();
    else if (part) out += paint(part);
  }
  return out;
}
