/**
 * Claude Code's `ToolSearch` (#23 item 2): the rarely used tools are not declared up front; their
 * names are listed here, and `select:A,B` (or keywords) declares the matches from the next request
 * on, as Claude Code defers WebFetch, WebSearch and its todo tools.
 */
import { memo, z } from "../shared/mod.ts";
import type { BuiltinTool } from "./builtin_tool.ts";
import { parseToolArguments } from "./builtin_tool.ts";
import { objectSchema } from "./tool_face.ts";

const schema = memo(() =>
  z.object({ query: z.string().check(z.minLength(1)), max_results: z.optional(z.number()) })
);
type Args = z.infer<ReturnType<typeof schema>>;

export function toolSearchTool(
  deferred: readonly BuiltinTool[],
  load: (names: string[]) => void,
): BuiltinTool {
  const names = deferred.map((t) => t.name);
  const parameters = objectSchema({
    query: {
      type: "string",
      description: 'Either "select:<name>[,<name>...]" or keywords to search the deferred tools.',
    },
    max_results: { type: "number", default: 5, description: "Most tools to return (default 5)." },
  }, ["query"]);
  const parse = (raw: unknown) => parseToolArguments("ToolSearch", schema(), raw);
  return {
    name: "ToolSearch",
    hookName: "ToolSearch",
    hookAliases: [],
    description: `Load deferred tools so they can be called from the next step on. Deferred tools: ${
      names.join(", ")
    }. Calling one before it is loaded fails.`,
    parameters,
    parallel: true,
    source: { kind: "builtin" },
    parseArguments: parse,
    approval: () => ({ kind: "none" }),
    derivedParameters: () => Promise.resolve(parameters),
    toHookInput: (args) => args,
    fromHookInput: parse,
    run(raw) {
      const args = raw as Args;
      const matches = matching(deferred, args.query).slice(0, args.max_results ?? 5);
      if (matches.length === 0) {
        return Promise.resolve({
          status: "error",
          output: `No deferred tool matches "${args.query}". Deferred tools: ${names.join(", ")}`,
        });
      }
      load(matches.map((t) => t.name));
      return Promise.resolve({
        status: "success",
        output: `Loaded ${matches.map((t) => t.name).join(", ")}: declared from the next step on.\n` +
          matches.map((t) => `${t.name}: ${t.description}`).join("\n"),
      });
    },
  };
}

function matching(deferred: readonly BuiltinTool[], query: string): BuiltinTool[] {
  if (query.startsWith("select:")) {
    const wanted = query.slice(7).split(",").map((s) => s.trim().toLowerCase());
    return deferred.filter((t) => wanted.includes(t.name.toLowerCase()));
  }
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return deferred.filter((t) => words.some((w) => `${t.name} ${t.description}`.toLowerCase().includes(w)));
}
