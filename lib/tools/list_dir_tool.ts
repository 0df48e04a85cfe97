import { describeSchema, memo, z } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { pathArgument } from "./path_argument.ts";
import { checkPathAccess, deniedUnlessEscalated } from "./path_access.ts";
import { truncateOutput } from "./output_budget.ts";
import { statQuietly } from "./file_errors.ts";
import { compareTreePaths, walkTree } from "./walk_tree.ts";
import type { ToolEnv } from "./tool_env.ts";

const MAX_ENTRIES = 1000;

const schema = memo(() =>
  z.object({
    path: describeSchema(
      z._default(pathArgument(), "."),
      "Directory to list (default: the workspace)",
    ),
    depth: describeSchema(
      z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(10))),
      "How many levels to descend (default 2)",
    ),
  })
);
type Args = z.infer<ReturnType<typeof schema>>;

/** `list_dir` / LS: an indented tree; directories end in `/`, symlinks in `@` (never followed). */
export function listDirTool(env: ToolEnv): BuiltinTool {
  const access = (args: Args) => checkPathAccess(env.profile, args.path, "read");
  return builtinTool({
    name: "list_dir",
    hookName: "LS",
    description: "List a directory as an indented tree. Directories end in '/', symlinks in '@'.",
    schema,
    parallel: true,
    approval: (args) => access(args).need,
    async run(args, ctx) {
      const target = access(args);
      const denied = deniedUnlessEscalated(target, "list", ctx.escalated);
      if (denied) return denied;
      const info = await statQuietly(env.platform.fs, target.path);
      if (!info?.isDirectory) {
        const state = info ? "not a directory" : "no such file or directory";
        return { status: "error", output: `Cannot list "${args.path}": ${state}` };
      }
      const { entries, truncated, aborted } = await walkTree(env.platform.fs, target.path, {
        maxDepth: args.depth ?? 2,
        maxEntries: MAX_ENTRIES,
        signal: ctx.signal,
      });
      if (aborted) return { status: "aborted", output: `Cannot list "${args.path}": aborted` };
      // Depth-first order for display, so children sit under their parent.
      entries.sort((a, b) => compareTreePaths(a.relative, b.relative));
      const lines = entries.map((e) => {
        const name = e.relative.split("/").at(-1);
        const mark = e.isSymlink ? "@" : e.isDirectory ? "/" : "";
        return `${"  ".repeat(e.depth - 1)}${name}${mark}`;
      });
      if (lines.length === 0) lines.push("(empty directory)");
      if (truncated) lines.push(`[… stopped after ${MAX_ENTRIES} entries …]`);
      return {
        status: "success",
        output: truncateOutput(`${target.path}/\n${lines.join("\n")}`, env.outputMaxBytes),
      };
    },
    toHookInput: (args) => ({ path: access(args).path, depth: args.depth }),
    fromHookInput: (input) => ({ path: input.path, depth: input.depth }),
  });
}
