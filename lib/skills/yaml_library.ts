// Moved to lib/shared (#22 item 1); skills' files keep importing here.
export { loadYamlParser } from "../shared/mod.ts";
export type { FullYamlParse } from "../shared/mod.ts";
