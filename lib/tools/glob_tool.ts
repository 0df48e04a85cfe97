import { describeSchema, memo, z } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { pathArgument } from "./path_argument.ts";
import { checkPathAccess, deniedUnlessEscalated } from "./path_access.ts";
import { truncateOutput } from "./output_budget.ts";
import { globMatcher } from "./glob_pattern.ts";
import { compareTreePaths, walkTree } from "./walk_tree.ts";
import type { ToolEnv } from "./tool_env.ts";

const MAX_RESULTS = 1000;
const MAX_WALK = 50_000;

const schema = memo(() =>
  z.object({
    pattern: describeSchema(z.string().check(z.minLength(1)), "Glob such as '**/*.ts' or 'src/*.{js,ts}'"),
    path: describeSchema(
      z.optional(pathArgument()),
      "Directory to search (default: the workspace)",
    ),
  })
);
type Args = z.infer<ReturnType<typeof schema>>;

/** `glob` / Glob: workspace-relative paths matching a glob, sorted; `.git` is skipped. */
export function globTool(env: ToolEnv): BuiltinTool {
  const access = (args: Args) => checkPathAccess(env.profile, args.path ?? ".", "read");
  return builtinTool({
    name: "glob",
    hookName: "Glob",
    description: "Find files by glob pattern ('**' spans directories). Returns matching paths, sorted.",
    schema,
    parallel: true,
    approval: (args) => access(args).need,
    async run(args, ctx) {
      const target = access(args);
      const denied = deniedUnlessEscalated(target, "search", ctx.escalated);
      if (denied) return denied;
      const matchesGlob = await globMatcher(args.pattern);
      const walk = { maxEntries: MAX_WALK, signal: ctx.signal };
      const { entries, truncated, aborted } = await walkTree(env.platform.fs, target.path, walk);
      if (aborted) return { status: "aborted", output: `Cannot search "${args.pattern}": aborted` };
      const matches = entries.filter((e) => matchesGlob(e.relative)).map((e) => e.relative).sort(
        compareTreePaths,
      );
      const lines = matches.slice(0, MAX_RESULTS);
      if (matches.length > MAX_RESULTS) lines.push(`[… ${matches.length - MAX_RESULTS} more matches …]`);
      if (truncated) lines.push(`[… search stopped after ${MAX_WALK} entries …]`);
      const output = lines.length ? lines.join("\n") : `No files match "${args.pattern}" in ${target.path}`;
      return { status: "success", output: truncateOutput(output, env.outputMaxBytes) };
    },
    toHookInput: (args) => ({
      pattern: args.pattern,
      path: args.path === undefined ? undefined : access(args).path,
    }),
    fromHookInput: (input) => ({ pattern: input.pattern, path: input.path }),
  });
}
