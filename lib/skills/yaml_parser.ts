import type { parse } from "yaml";

/** The `yaml` package's parse function. */
export type FullYamlParse = typeof parse;

let parser: Promise<FullYamlParse> | undefined;

/**
 * Loads the `yaml` package on first need: most SKILL.md frontmatter takes the fast path
 * (simple_yaml.ts), and loading the package costs every command ~2 ms.
 */
export function loadYamlParser(): Promise<FullYamlParse> {
  return parser ??= import("yaml").then((m) => m.parse);
}
