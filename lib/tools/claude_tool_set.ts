/**
 * Claude Code's tool set (#23 item 2), names and shapes as Claude Code 2.1.332 declares them
 * (fixtures/peers/claude-code-2.1.332-sonnet-4-5.json): Bash, Edit, Read, ToolSearch, Write up
 * front; the rarely used tools (TodoWrite, WebFetch) deferred behind ToolSearch, declared from the
 * request after the model selects them. Beneath: Trellis's shell and file tools.
 */
import type { BuiltinTool } from "./builtin_tool.ts";
import { parseToolArguments } from "./builtin_tool.ts";
import { memo, z } from "../shared/mod.ts";
import { editFileTool } from "./edit_file_tool.ts";
import type { ExecSessions } from "./exec_sessions.ts";
import { readFileTool } from "./read_file_tool.ts";
import { commandArgv, shellTool } from "./shell_tool.ts";
import { argumentObject, objectSchema, toolFace } from "./tool_face.ts";
import type { ToolEnv } from "./tool_env.ts";
import { writeFileTool } from "./write_file_tool.ts";

const str = (description: string) => ({ type: "string", description });
const BACKGROUND_TIMEOUT_MS = 600_000;

export function claudeReadTool(env: ToolEnv): BuiltinTool {
  return toolFace(readFileTool(env), {
    name: "Read",
    description:
      "Read a file by absolute path. Returns numbered lines; offset and limit page through large files.",
    parameters: objectSchema({
      file_path: str("Absolute path of the file to read."),
      offset: { type: "integer", minimum: 0, description: "Line to start at." },
      limit: { type: "integer", exclusiveMinimum: 0, description: "How many lines to read." },
    }, ["file_path"]),
    // Claude Code's offset counts from 0 or 1 alike for the first line; read_file's from 1.
    toInner: (a) => ({ path: a.file_path, offset: a.offset === 0 ? 1 : a.offset, limit: a.limit }),
  });
}

export function claudeWriteTool(env: ToolEnv): BuiltinTool {
  return toolFace(writeFileTool(env), {
    name: "Write",
    description: "Write a whole file (absolute path), replacing what is there.",
    parameters: objectSchema({
      file_path: str("Absolute path of the file to write."),
      content: str("The file's complete new content."),
    }, ["file_path", "content"]),
    toInner: (a) => ({ path: a.file_path, content: a.content }),
  });
}

export function claudeEditTool(env: ToolEnv): BuiltinTool {
  return toolFace(editFileTool(env), {
    name: "Edit",
    description: "Replace exact text in a file. old_string must occur once unless replace_all.",
    parameters: objectSchema({
      file_path: str("Absolute path of the file to change."),
      old_string: str("The exact text to replace."),
      new_string: str("The text to put in its place (must differ)."),
      replace_all: { type: "boolean", default: false, description: "Replace every occurrence." },
    }, ["file_path", "old_string", "new_string"]),
    toInner: (a) => ({
      path: a.file_path,
      old_string: a.old_string,
      new_string: a.new_string,
      replace_all: a.replace_all,
    }),
  });
}

const bashExtras = memo(() =>
  z.object({ run_in_background: z.optional(z.boolean()), description: z.optional(z.string()) })
);

/**
 * `Bash`: shell beneath; `run_in_background` starts it as a session (capped, killed at session
 * end) whose output goes to a file the model can Read.
 */
export function claudeBashTool(
  env: ToolEnv,
  sessions: ExecSessions,
  outputDir: () => Promise<string>,
): BuiltinTool {
  const face = toolFace(shellTool(env), {
    name: "Bash",
    description:
      "Run a bash command in the workspace (sandboxed). Returns exit code and output. With run_in_background it keeps running and its output goes to a file.",
    parameters: objectSchema({
      command: str("The command to run."),
      timeout: { type: "number", description: "Kill it after this many milliseconds (default 120000)." },
      description: str("A few words on what the command does, for the person watching."),
      run_in_background: {
        type: "boolean",
        description: "Keep it running in the background; read its output file later.",
      },
    }, ["command"]),
    toInner: (a) => ({ command: a.command, timeout_ms: a.timeout }),
  });
  return {
    ...face,
    parseArguments(raw) {
      const object = argumentObject("Bash", raw);
      const extras = parseToolArguments("Bash", bashExtras(), object);
      return { ...(face.parseArguments(object) as object), background: extras.run_in_background === true };
    },
    async run(raw, ctx) {
      const args = raw as { command: string; timeout_ms?: number; background: boolean };
      if (!args.background) return face.run(args, ctx);
      const prepared = await commandArgv(env, args, ctx);
      if ("status" in prepared) return prepared;
      const dir = await outputDir();
      const file = `${dir}/bash-${Date.now().toString(36)}.output`;
      const session = sessions.start(prepared.cmd, {
        command: args.command,
        cwd: prepared.cwd,
        tty: false,
        timeoutMs: args.timeout_ms ?? BACKGROUND_TIMEOUT_MS,
        outputFile: file,
      });
      if (typeof session === "string") return { status: "error", output: session };
      return {
        status: "success",
        output: `Command running in background with ID: ${session.id}. Output is being written to: ${file}`,
      };
    },
    toHookInput: (raw) => {
      const args = raw as { background?: boolean };
      return {
        ...(face.toHookInput(raw) as object),
        ...(args.background ? { run_in_background: true } : {}),
      };
    },
  };
}
