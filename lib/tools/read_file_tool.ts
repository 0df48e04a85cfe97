import { describeSchema, memo, z } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { checkPathAccess, deniedUnlessEscalated } from "./path_access.ts";
import { truncateOutput } from "./output_budget.ts";
import { describeFsError, isBinary } from "./file_errors.ts";
import type { ToolEnv } from "./tool_env.ts";

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

const schema = memo(() =>
  z.object({
    path: describeSchema(
      z.string().check(z.minLength(1)),
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

/** `read_file` / Read: the file's lines numbered like `cat -n`, so edits can cite them. */
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
      let bytes: Uint8Array;
      try {
        bytes = await env.platform.fs.readFile(target.path);
      } catch (error) {
        return { status: "error", output: describeFsError("read", args.path, error) };
      }
      if (isBinary(bytes)) return { status: "error", output: `Cannot read "${args.path}": binary file` };
      const text = numberLines(
        new TextDecoder().decode(bytes),
        args.offset ?? 1,
        args.limit ?? DEFAULT_LIMIT,
      );
      return { status: "success", output: truncateOutput(text, env.outputMaxBytes) };
    },
    toHookInput: (args) => ({ file_path: access(args).path, offset: args.offset, limit: args.limit }),
    fromHookInput: (input) => ({
      path: input.file_path ?? input.path,
      offset: input.offset,
      limit: input.limit,
    }),
  });
}

export function numberLines(text: string, offset: number, limit: number): string {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) return "(empty file)";
  if (offset > lines.length) return `(offset ${offset} is past the end: the file has ${lines.length} lines)`;
  const slice = lines.slice(offset - 1, offset - 1 + limit);
  const numbered = slice.map((line, i) => {
    const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line truncated]` : line;
    return `${String(offset + i).padStart(6)}\t${shown}`;
  });
  const last = offset - 1 + slice.length;
  if (last < lines.length) numbered.push(`(showing lines ${offset}-${last} of ${lines.length})`);
  return numbered.join("\n");
}
