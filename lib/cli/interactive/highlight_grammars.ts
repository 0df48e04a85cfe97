/**
 * highlight.js with its common grammars, typed by _highlight_js.d.ts instead of highlight.js's own
 * types: those reference the DOM library, which once in a program retypes the web streams of every
 * other file (`pipeThrough(new TextDecoderStream())` stops type-checking). A leaf module (it
 * imports nothing of the project), loaded on first use by markdown_libraries.ts.
 */
// @ts-types="./_highlight_js.d.ts"
import hljs from "highlight.js/lib/common";

export default hljs;
