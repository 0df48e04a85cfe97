/**
 * `apply_patch` (#23 item 2): Codex's patch format, declared as Codex declares it to the models it
 * offers it to — a freeform (grammar) tool on the Responses wire (`freeform` below), else a function
 * taking `{input}`. Beneath, the same path checks, approvals, checkpoints and editor hooks as
 * Edit/Write; every hunk of every file is matched before the first file is written.
 */
import * as nodePath from "node:path";
import type { ApprovalNeed, JsonSchema, ToolResult, ToolRunContext } from "../shared/mod.ts";
import { TrellisError } from "../shared/mod.ts";
import { readRegularFile } from "../platform/mod.ts";
import type { BuiltinTool } from "./builtin_tool.ts";
import { fsErrorResult } from "./file_errors.ts";
import { checkPathAccess, deniedUnlessEscalated, type PathAccess } from "./path_access.ts";
import { applyHunks, parsePatch, type PatchOperation } from "./patch_format.ts";
import type { ToolEnv } from "./tool_env.ts";

/** The Lark grammar the Responses wire constrains the model's patch with (Codex's format). */
export const APPLY_PATCH_GRAMMAR = `start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
`;

const DESCRIPTION =
  "Edit files with a patch: *** Begin Patch, then per file *** Add File: PATH (+ lines), *** Delete File: PATH, " +
  "or *** Update File: PATH (optional *** Move to: PATH) with @@ hunks of ' ' context, '-' removed and '+' added " +
  "lines, then *** End Patch. Paths are relative to the workspace. Every hunk is checked before any file changes.";

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    input: { type: "string", description: "The whole patch, *** Begin Patch to *** End Patch." },
  },
  required: ["input"],
  additionalProperties: false,
};

interface PatchArgs {
  input: string;
  operations: PatchOperation[];
}

interface PlannedChange {
  access: PathAccess;
  /** What the file holds now (null: absent); the checkpoint keeps these bytes. */
  before: Uint8Array | null;
  /** What it will hold (null: removed). */
  after: string | null;
  oldText: string | null;
  letter: "A" | "M" | "D";
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const MAX_PATCH_FILE_BYTES = 64 * 1024 * 1024;

/** The patch text from a freeform call (the raw text) or a function call (`{"input": ...}`). */
function patchText(raw: unknown): string {
  let value = raw;
  if (typeof raw === "string") {
    if (!raw.trimStart().startsWith("{")) return raw;
    try {
      value = JSON.parse(raw);
    } catch {
      throw argumentsError("arguments are not valid JSON");
    }
  }
  const input = (value as { input?: unknown } | null)?.input;
  if (typeof input !== "string") throw argumentsError("input: expected the patch as a string");
  return input;
}

function argumentsError(state: string): TrellisError {
  return new TrellisError("tool_arguments", `Cannot parse arguments for "apply_patch": ${state}`, {
    tool: "apply_patch",
    field: "input",
  });
}

function touchedPaths(operations: PatchOperation[]): string[] {
  return operations.flatMap((op) => op.kind === "update" && op.moveTo ? [op.path, op.moveTo] : [op.path]);
}

export function applyPatchTool(
  env: ToolEnv,
): BuiltinTool & { freeform: { syntax: "lark"; definition: string } } {
  const access = (path: string) => checkPathAccess(env.profile, path, "write");
  const parse = (raw: unknown): PatchArgs => {
    const input = patchText(raw);
    return { input, operations: parsePatch(input) };
  };
  return {
    name: "apply_patch",
    hookName: "Edit",
    hookAliases: ["Write", "apply_patch"],
    description: DESCRIPTION,
    parameters: PARAMETERS,
    freeform: { syntax: "lark", definition: APPLY_PATCH_GRAMMAR },
    parallel: false,
    source: { kind: "builtin" },
    parseArguments: parse,
    approval(args): ApprovalNeed {
      const needs = touchedPaths((args as PatchArgs).operations).map((p) => access(p).need);
      return needs.find((need) => need.kind === "required") ?? { kind: "none" };
    },
    async run(raw, ctx) {
      const args = raw as PatchArgs;
      for (const path of touchedPaths(args.operations)) {
        const denied = deniedUnlessEscalated(access(path), "edit", ctx.escalated);
        if (denied) return denied;
      }
      const planned = await plan(env, args.operations, access, ctx);
      if ("status" in planned) return planned;
      if (ctx.signal.aborted) return { status: "aborted", output: "Cannot apply the patch: aborted" };
      for (const change of planned) {
        const written = await write(env, change, ctx);
        if (written) return written;
      }
      const lines = planned.map((c) =>
        `${c.letter} ${nodePath.relative(env.profile.workspace, c.access.path)}`
      );
      return { status: "success", output: `Success. Updated the following files:\n${lines.join("\n")}` };
    },
    toHookInput(raw) {
      const args = raw as PatchArgs;
      const files = touchedPaths(args.operations).map((p) => access(p).path);
      return { file_path: files[0], file_paths: files, patch: args.input };
    },
    fromHookInput(input) {
      const record = (input ?? {}) as Record<string, unknown>;
      return parse({ input: record.patch ?? record.input });
    },
    derivedParameters: () => Promise.resolve(PARAMETERS),
  };
}

/** Every file's new content, computed from what is on disk now; nothing is written here. */
async function plan(
  env: ToolEnv,
  operations: PatchOperation[],
  access: (path: string) => PathAccess,
  ctx: ToolRunContext,
): Promise<PlannedChange[] | ToolResult> {
  const changes: PlannedChange[] = [];
  const read = async (path: string): Promise<Uint8Array | null> => {
    const info = await env.platform.fs.stat(path);
    if (!info) return null;
    if (!info.isFile) {
      throw new TrellisError("patch_invalid", `"${path}" is not a regular file`, { file: path });
    }
    return await readRegularFile(path, { signal: ctx.signal, maxBytes: MAX_PATCH_FILE_BYTES });
  };
  for (const op of operations) {
    const target = access(op.path);
    let before: Uint8Array | null;
    try {
      before = await read(target.path);
    } catch (error) {
      if (error instanceof TrellisError) {
        return { status: "error", output: `Cannot apply the patch: ${error.message}` };
      }
      return fsErrorResult("patch", op.path, error);
    }
    const oldText = before === null ? null : utf8.decode(before);
    if (op.kind === "add") {
      changes.push({ access: target, before, after: op.content, oldText, letter: before ? "M" : "A" });
      continue;
    }
    if (before === null) {
      const verb = op.kind === "delete" ? "delete" : "update";
      return { status: "error", output: `Cannot apply the patch: cannot ${verb} "${op.path}": no such file` };
    }
    if (op.kind === "delete") {
      changes.push({ access: target, before, after: null, oldText, letter: "D" });
      continue;
    }
    let updated: string;
    try {
      updated = applyHunks(op.path, oldText!, op.hunks);
    } catch (error) {
      if (error instanceof TrellisError) return { status: "error", output: error.message };
      throw error;
    }
    if (!op.moveTo) {
      changes.push({ access: target, before, after: updated, oldText, letter: "M" });
      continue;
    }
    const destination = access(op.moveTo);
    let existing: Uint8Array | null;
    try {
      existing = await read(destination.path);
    } catch (error) {
      return fsErrorResult("patch", op.moveTo, error);
    }
    changes.push({
      access: destination,
      before: existing,
      after: updated,
      oldText: existing && utf8.decode(existing),
      letter: existing ? "M" : "A",
    });
    changes.push({ access: target, before, after: null, oldText, letter: "D" });
  }
  return changes;
}

async function write(
  env: ToolEnv,
  change: PlannedChange,
  ctx: ToolRunContext,
): Promise<ToolResult | undefined> {
  const path = change.access.path;
  try {
    await env.changes?.beforeChange(path, change.before, { inPlace: false });
    if (change.after === null) await env.platform.fs.remove(path);
    else {
      await env.platform.fs.mkdir(nodePath.dirname(path));
      const info = await env.platform.fs.stat(path);
      await env.platform.fs.writeFileAtomic(path, change.after, { mode: info ? info.mode & 0o7777 : 0o644 });
    }
    await env.changes?.afterChange(path, change.after);
  } catch (error) {
    return fsErrorResult("patch", change.access.requested, error);
  }
  env.editor?.fileChanged?.({
    callId: ctx.callId,
    path,
    oldText: change.oldText,
    newText: change.after ?? "",
  });
  return undefined;
}
