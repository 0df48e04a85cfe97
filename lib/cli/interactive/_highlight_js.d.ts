/** The part of highlight.js the interactive mode uses (see highlight_grammars.ts). */
export interface HighlightApi {
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
}

declare const hljs: HighlightApi;
export default hljs;
