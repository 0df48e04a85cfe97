/**
 * Glob matching for the `glob` tool and grep's `include`, by picomatch (bash-style globs: `**`
 * spans directories, `*` and `?` stay within one segment, `{a,b}` alternates, `[...]`/`[!...]`
 * classes never match `/`, `\` escapes, an unbalanced `{` or `[` is a literal). The one rule kept
 * here: a pattern without `/` matches the base name at any depth, as `*.ts` does in ripgrep's
 * `--glob`. `node:path.matchesGlob` was measured and rejected: Bun 1.4's and Deno 2.9's disagree
 * on `[!a]` against `/`, on `\*`, and on dot files under `**`.
 *
 * picomatch loads on the first glob (dynamic import): most runs never search by glob.
 */
export type GlobMatcher = (relativePath: string) => boolean;

type Picomatch = (glob: string, options: Record<string, unknown>) => (input: string) => boolean;
let picomatch: Promise<Picomatch> | undefined;

const OPTIONS = {
  windows: false, // `/` is the only separator, whatever the host
  dot: true, // `*` matches `.env` too: a search tool hides nothing by name
  posix: true, // `[!a]` negates, `[[:alpha:]]` classes
  nonegate: true, // a leading `!` is a literal, not "everything but"
};

/** A matcher for `/`-separated paths relative to the searched directory. */
export async function globMatcher(pattern: string): Promise<GlobMatcher> {
  picomatch ??= import("picomatch").then((m) => (m.default ?? m) as Picomatch);
  const matches = (await picomatch)(pattern.replace(/^\.\//, ""), OPTIONS);
  if (pattern.includes("/")) return matches;
  return (relativePath) => matches(relativePath.slice(relativePath.lastIndexOf("/") + 1));
}
