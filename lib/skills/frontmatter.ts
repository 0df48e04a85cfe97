// Moved to lib/shared (#22 item 1: agent definitions share the reader); skills' files keep importing here.
export {
  extractFrontmatter,
  frontmatterClosedIn,
  parseFrontmatterYaml,
  sanitizeSingleLine,
} from "../shared/mod.ts";
export type { FrontmatterSplit, YamlParse } from "../shared/mod.ts";
