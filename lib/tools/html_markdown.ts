/**
 * A fetched page as the model reads it (#23 item 3): HTML through turndown (its own DOM parser,
 * domino, runs under Deno and Bun alike), with scripts, styles and other non-content dropped.
 * Loaded on the first fetch only.
 */
type Converter = { turndown(html: string): string };
let converter: Promise<Converter> | undefined;

export async function htmlToMarkdown(html: string): Promise<string> {
  converter ??= import("turndown").then(({ default: TurndownService }) => {
    const service = new TurndownService({
      headingStyle: "atx",
      codeBlockStyle: "fenced",
      bulletListMarker: "-",
    });
    service.remove(["script", "style", "noscript", "template", "iframe", "svg", "canvas", "head"]);
    return service;
  });
  return (await converter).turndown(html).replace(/\n{3,}/g, "\n\n").trim();
}
