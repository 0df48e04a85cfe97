import type { parse } from "yaml";
import { memo } from "./memo.ts";

/** The `yaml` package's parse function. */
export type FullYamlParse = typeof parse;

/**
 * Loads the `yaml` package on first need: most SKILL.md frontmatter takes the fast path
 * (simple_yaml.ts), and loading the package costs every command ~2 ms.
 */
export const loadYamlParser: () => Promise<FullYamlParse> = memo(() => import("yaml").then((m) => m.parse));
