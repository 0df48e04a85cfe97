import * as nodePath from "node:path";
import { type FileSystem, readRegularFile } from "../platform/mod.ts";
import { describeSchema, memo, z } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import { pathArgument } from "./path_argument.ts";
import { checkPathAccess, deniedUnlessEscalated } from "./path_access.ts";
import { truncateOutput } from "./output_budget.ts";
import { globMatcher } from "./glob_pattern.ts";
import { isBinary, statQuietly } from "./file_errors.ts";
import { compareTreePaths, walkTree } from "./walk_tree.ts";
import type { ToolEnv } from "./tool_env.ts";

const MAX_MATCHES = 500;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_CHARS = 500;
const READ_BATCH = 32;

const schema = memo(() =>
  z.object({
    pattern: describeSchema(
      z.string().check(z.minLength(1), z.refine(isValidRegExp, "not a valid regular expression")),
      "JavaScript regular expression to search for",
    ),
    path: describeSchema(
      z.optional(pathArgument()),
      "File or directory to search (default: the workspace)",
    ),
    include: describeSchema(
      z.optional(z.string().check(z.minLength(1))),
      "Only search files matching this glob, e.g. '*.{ts,tsx}'",
    ),
  })
);
type Args = z.infer<ReturnType<typeof schema>>;

function isValidRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** `grep` / Grep: `path:line: text` for each matching line; binary and huge files are skipped. */
export function grepTool(env: ToolEnv): BuiltinTool {
  const access = (args: Args) => checkPathAccess(env.profile, args.path ?? ".", "read");
  return builtinTool({
    name: "grep",
    hookName: "Grep",
    description: "Search file contents with a regular expression. Returns 'path:line: text' per match.",
    schema,
    parallel: true,
    approval: (args) => access(args).need,
    async run(args, ctx) {
      const target = access(args);
      const denied = deniedUnlessEscalated(target, "search", ctx.escalated);
      if (denied) return denied;
      const info = await statQuietly(env.platform.fs, target.path);
      if (!info) {
        return { status: "error", output: `Cannot search "${args.path}": no such file or directory` };
      }
      if (!info.isDirectory && !info.isFile) {
        return { status: "error", output: `Cannot search "${args.path}": not a regular file` };
      }
      const candidates = info.isDirectory
        ? await candidateFiles(env.platform.fs, target.path, args.include, ctx.signal)
        : [{ path: target.path, shown: nodePath.basename(target.path) }];
      // A file a Read deny rule covers is not searched: its lines would reach the model (#21 item 7).
      const unsearched: string[] = [];
      const files = [];
      for (const file of candidates) {
        const rule = ctx.readDenied ? await ctx.readDenied(file.path) : undefined;
        if (rule) unsearched.push(`${file.shown}: permission rule ${rule}`);
        else files.push(file);
      }
      if (ctx.signal.aborted) return { status: "aborted", output: "search aborted" };
      const regex = new RegExp(args.pattern);
      const lines: string[] = [];
      // Read a batch at a time: parallel I/O, yet results stay in path order and can stop early.
      for (let i = 0; i < files.length && lines.length < MAX_MATCHES; i += READ_BATCH) {
        if (ctx.signal.aborted) return { status: "aborted", output: "search aborted" };
        const batch = files.slice(i, i + READ_BATCH);
        const found = await Promise.all(batch.map((file) => matchFile(file, regex, MAX_MATCHES, ctx.signal)));
        lines.push(...found.flat().slice(0, MAX_MATCHES - lines.length));
      }
      if (lines.length >= MAX_MATCHES) lines.push(`[… stopped after ${MAX_MATCHES} matches …]`);
      if (unsearched.length > 0) {
        const shown = unsearched.slice(0, 5).join("; ");
        lines.push(`[not searched: ${shown}${unsearched.length > 5 ? "; …" : ""}]`);
      }
      const output = lines.length ? lines.join("\n") : `No matches for /${args.pattern}/ in ${target.path}`;
      return { status: "success", output: truncateOutput(output, env.outputMaxBytes) };
    },
    toHookInput: (args) => ({
      pattern: args.pattern,
      path: args.path === undefined ? undefined : access(args).path,
      glob: args.include,
    }),
    fromHookInput: (input) => ({
      pattern: input.pattern,
      path: input.path,
      include: input.glob ?? input.include,
    }),
  });
}

async function candidateFiles(
  fs: FileSystem,
  root: string,
  include: string | undefined,
  signal: AbortSignal,
) {
  const matches = include ? await globMatcher(include) : undefined;
  const { entries } = await walkTree(fs, root, { skipDirs: [".git", "node_modules"], signal });
  return entries
    .filter((e) => e.isFile && !e.isSymlink && (!matches || matches(e.relative)))
    .map((e) => ({ path: e.path, shown: e.relative }))
    .sort((a, b) => compareTreePaths(a.shown, b.shown));
}

async function matchFile(
  file: { path: string; shown: string },
  regex: RegExp,
  room: number,
  signal: AbortSignal,
) {
  const found: string[] = [];
  let bytes: Uint8Array;
  try {
    // Regular files only, opened without blocking: a FIFO planted in the tree is skipped, not waited on.
    bytes = await readRegularFile(file.path, { signal, maxBytes: MAX_FILE_BYTES });
  } catch {
    return found; // unreadable, too large, not a regular file or aborted: skipped like a binary file
  }
  if (isBinary(bytes)) return found;
  const lines = new TextDecoder().decode(bytes).split("\n");
  for (let i = 0; i < lines.length && found.length < room; i++) {
    if (!regex.test(lines[i])) continue;
    const text = lines[i].length > MAX_LINE_CHARS ? `${lines[i].slice(0, MAX_LINE_CHARS)}…` : lines[i];
    found.push(`${file.shown}:${i + 1}: ${text}`);
  }
  return found;
}
