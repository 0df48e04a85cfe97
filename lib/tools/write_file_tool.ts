import { describeSchema, memo, type ToolResult, type ToolRunContext, z } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { pathArgument } from "./path_argument.ts";
import { checkPathAccess, deniedUnlessEscalated } from "./path_access.ts";
import { fsErrorResult } from "./file_errors.ts";
import type { ToolEnv } from "./tool_env.ts";

const schema = memo(() =>
  z.object({
    path: describeSchema(
      pathArgument(),
      "File to write, absolute or relative to the workspace",
    ),
    content: describeSchema(z.string(), "The complete new content of the file"),
  })
);
type Args = z.infer<ReturnType<typeof schema>>;

/** `write_file` / Write: creates or replaces a whole file (parents created), atomically. */
export function writeFileTool(env: ToolEnv): BuiltinTool {
  const access = (args: Args) => checkPathAccess(env.profile, args.path, "write");
  return builtinTool({
    name: "write_file",
    hookName: "Write",
    description: "Create or overwrite a file with the given content. Parent directories are created.",
    schema,
    parallel: false,
    approval: (args) => access(args).need,
    async run(args, ctx) {
      const target = access(args);
      const denied = deniedUnlessEscalated(target, "write", ctx.escalated);
      if (denied) return denied;
      if (ctx.signal.aborted) return { status: "aborted", output: `Cannot write "${args.path}": aborted` };
      try {
        return await writeResolved(env, target.path, args, ctx);
      } catch (error) {
        return fsErrorResult("write", args.path, error);
      }
    },
    toHookInput: (args) => ({ file_path: access(args).path, content: args.content }),
    fromHookInput: (input) => ({ path: input.file_path ?? input.path, content: input.content }),
  });
}

async function writeResolved(
  env: ToolEnv,
  path: string,
  args: Args,
  ctx: ToolRunContext,
): Promise<ToolResult> {
  const info = await env.platform.fs.stat(path);
  if (info?.isDirectory) return { status: "error", output: `Cannot write "${args.path}": is a directory` };
  // A FIFO, socket or device is not content to replace: renaming a file over it would destroy it.
  if (info && !info.isFile) {
    return { status: "error", output: `Cannot write "${args.path}": not a regular file` };
  }
  const before = env.editor?.fileChanged && info ? await previousText(env, path, ctx.signal) : null;
  // The file as it is now goes to the turn's checkpoint first (#25 item 2): `rewind` puts it back.
  await env.changes?.beforeChange(path, info ? undefined : null, {
    inPlace: Boolean(env.editor?.writeTextFile),
  });
  // Write to the resolved path: a symlink inside the roots keeps pointing at its updated target.
  if (env.editor?.writeTextFile) await env.editor.writeTextFile(path, args.content);
  else await env.platform.fs.writeFileAtomic(path, args.content, { mode: info ? info.mode & 0o7777 : 0o644 });
  await env.changes?.afterChange(path, args.content);
  env.editor?.fileChanged?.({ callId: ctx.callId, path, oldText: before, newText: args.content });
  const bytes = new TextEncoder().encode(args.content).length;
  return { status: "success", output: `${info ? "Overwrote" : "Created"} ${path} (${bytes} bytes)` };
}

/** What the file held before a write, for an editor's diff: its buffer, else the disk (text only). */
async function previousText(env: ToolEnv, path: string, signal: AbortSignal): Promise<string | null> {
  try {
    return await env.editor?.readTextFile?.(path, signal) ?? await env.platform.fs.readTextFile(path);
  } catch {
    return null;
  }
}
