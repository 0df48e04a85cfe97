import { describeSchema, memo, z } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { pathArgument } from "./path_argument.ts";
import { checkPathAccess, deniedUnlessEscalated } from "./path_access.ts";
import { truncateOutput } from "./output_budget.ts";
import { fsErrorResult } from "./file_errors.ts";
import { formatLineWindow, readLineWindow, textLineWindow } from "./line_window.ts";
import type { ToolEnv } from "./tool_env.ts";

const DEFAULT_LIMIT = 2000;

const schema = memo(() =>
  z.object({
    path: describeSchema(
      pathArgument(),
      "File to read, absolute or relative to the workspace",
    ),
    offset: describeSchema(
      z.optional(z.number().check(z.int(), z.minimum(1))),
      "1-based line to start at (default 1)",
    ),
    limit: describeSchema(
      z.optional(z.number().check(z.int(), z.minimum(1))),
      `Maximum lines to return (default ${DEFAULT_LIMIT})`,
    ),
  })
);
type Args = z.infer<ReturnType<typeof schema>>;

/**
 * `read_file` / Read: the file's lines numbered like `cat -n`, so edits can cite them. Streamed: a huge
 * file costs the lines asked for, and a FIFO or device is refused instead of read.
 */
export function readFileTool(env: ToolEnv): BuiltinTool {
  const access = (args: Args) => checkPathAccess(env.profile, args.path, "read");
  return builtinTool({
    name: "read_file",
    hookName: "Read",
    description: "Read a text file. Returns numbered lines; use offset and limit for large files.",
    schema,
    parallel: true,
    approval: (args) => access(args).need,
    async run(args, ctx) {
      const target = access(args);
      const denied = deniedUnlessEscalated(target, "read", ctx.escalated);
      if (denied) return denied;
      const offset = args.offset ?? 1;
      let window;
      try {
        // An editor's buffer wins over the disk (#25 item 1); the roots were checked above.
        const buffer = await env.editor?.readTextFile?.(target.path, ctx.signal) ?? null;
        window = buffer !== null
          ? textLineWindow(buffer, { offset, limit: args.limit ?? DEFAULT_LIMIT })
          : await readLineWindow(
            target.path,
            { offset, limit: args.limit ?? DEFAULT_LIMIT },
            ctx.signal,
          );
      } catch (error) {
        return fsErrorResult("read", args.path, error);
      }
      if (window.binary) return { status: "error", output: `Cannot read "${args.path}": binary file` };
      return {
        status: "success",
        output: truncateOutput(formatLineWindow(window, offset), env.outputMaxBytes),
      };
    },
    toHookInput: (args) => ({ file_path: access(args).path, offset: args.offset, limit: args.limit }),
    fromHookInput: (input) => ({
      path: input.file_path ?? input.path,
      offset: input.offset,
      limit: input.limit,
    }),
  });
}
