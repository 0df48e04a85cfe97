/**
 * `view_image` (#23 item 3), Codex's `{path}` shape: a local image handed to the model as an image
 * part of the call's output. Reading it is a read like read_file's (same roots, approvals and
 * `Read(…)` rules: hooks see it as Read with `file_path`); the bytes must be PNG, JPEG, GIF or WebP
 * and at most the image cap.
 */
import { describeSchema, memo, z } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { readImageFile } from "./image_file.ts";
import { pathArgument } from "./path_argument.ts";
import { checkPathAccess, deniedUnlessEscalated } from "./path_access.ts";
import type { ToolEnv } from "./tool_env.ts";

const schema = memo(() =>
  z.strictObject({
    path: describeSchema(pathArgument(), "Local path of the image, absolute or relative to the workspace"),
  })
);
type Args = z.infer<ReturnType<typeof schema>>;

export function viewImageTool(env: ToolEnv): BuiltinTool {
  const access = (args: Args) => checkPathAccess(env.profile, args.path, "read");
  return builtinTool<Args>({
    name: "view_image",
    hookName: "Read",
    hookAliases: ["view_image"],
    description:
      "Look at a local image file (PNG, JPEG, GIF or WebP), such as a screenshot or a diagram the user mentions. The image is added to the conversation.",
    schema,
    parallel: true,
    approval: (args) => access(args).need,
    async run(args, ctx) {
      const target = access(args);
      const denied = deniedUnlessEscalated(target, "view image", ctx.escalated);
      if (denied) return denied;
      const read = await readImageFile(env.platform.fs, target.path, args.path, env.everyday.imageMaxBytes);
      if (!read.ok) return { status: "error", output: read.reason };
      return {
        status: "success",
        output: `Image ${args.path} (${read.image.mimeType}) attached`,
        content: [
          { type: "text", text: `Image ${args.path} (${read.image.mimeType}):` },
          { type: "image", mimeType: read.image.mimeType, data: read.image.data },
        ],
      };
    },
    toHookInput: (args) => ({ file_path: access(args).path }),
    fromHookInput: (input) => ({ path: input.file_path ?? input.path }),
  });
}
