import { describeSchema, memo, z } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { pathArgument } from "./path_argument.ts";
import { checkPathAccess, deniedUnlessEscalated } from "./path_access.ts";
import { readRegularFile } from "../platform/mod.ts";
import { fsErrorResult } from "./file_errors.ts";
import type { ToolEnv } from "./tool_env.ts";

const schema = memo(() =>
  z.object({
    path: describeSchema(
      pathArgument(),
      "File to edit, absolute or relative to the workspace",
    ),
    old_string: describeSchema(
      z.string().check(z.minLength(1)),
      "Exact text to replace; must occur once unless replace_all",
    ),
    new_string: describeSchema(z.string(), "Replacement text"),
    replace_all: describeSchema(z.optional(z.boolean()), "Replace every occurrence (default false)"),
  }).check(z.refine((args) => args.old_string !== args.new_string, {
    message: "new_string must differ from old_string",
    path: ["new_string"],
  }))
);
type Args = z.infer<ReturnType<typeof schema>>;

/** Edits rewrite the whole file in memory; past this size a shell tool (sed, a patch) is the better fit. */
const MAX_EDIT_BYTES = 64 * 1024 * 1024;
// As the file system's readTextFile: invalid bytes become U+FFFD, a byte-order mark is kept.
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** `edit_file` / Edit: exact string replacement, refusing ambiguous or missing matches. */
export function editFileTool(env: ToolEnv): BuiltinTool {
  const access = (args: Args) => checkPathAccess(env.profile, args.path, "write");
  return builtinTool({
    name: "edit_file",
    hookName: "Edit",
    description:
      "Replace exact text in a file. old_string must match exactly once unless replace_all is true.",
    schema,
    parallel: false,
    approval: (args) => access(args).need,
    async run(args, ctx) {
      const target = access(args);
      const denied = deniedUnlessEscalated(target, "edit", ctx.escalated);
      if (denied) return denied;
      let text: string;
      let bytes: Uint8Array | undefined;
      try {
        // An editor's unsaved buffer is what the model saw through read_file: edit that (#25 item 1).
        const buffer = await env.editor?.readTextFile?.(target.path, ctx.signal) ?? null;
        // The checkpoint keeps the disk's bytes (#25 item 2): those just read, else its own read.
        bytes = buffer === null
          ? await readRegularFile(target.path, { signal: ctx.signal, maxBytes: MAX_EDIT_BYTES })
          : undefined;
        text = buffer ?? utf8.decode(bytes!);
      } catch (error) {
        return fsErrorResult("edit", args.path, error);
      }
      const count = text.split(args.old_string).length - 1;
      const problem = count === 0
        ? "old_string not found"
        : count > 1 && !args.replace_all
        ? `old_string occurs ${count} times; add surrounding context to make it unique or set replace_all`
        : undefined;
      if (problem) return { status: "error", output: `Cannot edit "${args.path}": ${problem}` };
      const updated = args.replace_all
        ? text.split(args.old_string).join(args.new_string)
        : text.replace(args.old_string, () => args.new_string);
      if (ctx.signal.aborted) return { status: "aborted", output: `Cannot edit "${args.path}": aborted` };
      const info = await env.platform.fs.stat(target.path);
      try {
        // The bytes just read are the checkpoint's (#25 item 2): a 1 MB file is not read twice.
        await env.changes?.beforeChange(target.path, bytes, { inPlace: Boolean(env.editor?.writeTextFile) });
        if (env.editor?.writeTextFile) await env.editor.writeTextFile(target.path, updated);
        else {
          await env.platform.fs.writeFileAtomic(target.path, updated, {
            mode: info ? info.mode & 0o7777 : 0o644,
          });
        }
        await env.changes?.afterChange(target.path, updated);
      } catch (error) {
        return fsErrorResult("edit", args.path, error);
      }
      env.editor?.fileChanged?.({ callId: ctx.callId, path: target.path, oldText: text, newText: updated });
      const what = count === 1 ? "1 replacement" : `${count} replacements`;
      return { status: "success", output: `Edited ${target.path} (${what})` };
    },
    toHookInput: (args) => ({
      file_path: access(args).path,
      old_string: args.old_string,
      new_string: args.new_string,
      replace_all: args.replace_all ?? false,
    }),
    fromHookInput: (input) => ({
      path: input.file_path ?? input.path,
      old_string: input.old_string,
      new_string: input.new_string,
      replace_all: input.replace_all,
    }),
  });
}
