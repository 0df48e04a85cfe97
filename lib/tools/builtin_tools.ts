import type { Platform, SandboxStatus } from "../platform/mod.ts";
import type { JsonSchema } from "../shared/mod.ts";
import type { BuiltinTool } from "./builtin_tool.ts";
import { DEFAULT_OUTPUT_MAX_BYTES } from "./output_budget.ts";
import type { PermissionProfile } from "./permission_profile.ts";
import { readFileTool } from "./read_file_tool.ts";
import { listDirTool } from "./list_dir_tool.ts";
import { globTool } from "./glob_tool.ts";
import { grepTool } from "./grep_tool.ts";
import { writeFileTool } from "./write_file_tool.ts";
import { editFileTool } from "./edit_file_tool.ts";
import { shellTool } from "./shell_tool.ts";

export interface BuiltinToolsOptions {
  platform: Platform;
  profile: PermissionProfile;
  /** From `detectSandbox(platform)`; decides whether shell runs under bwrap or needs approval. */
  sandbox: SandboxStatus;
  /** Budget for one output before head+tail truncation (default 64 KiB). */
  outputMaxBytes?: number;
}

/**
 * Each built-in tool's JSON Schema as zod derives it from the tool's argument schema now: what
 * `deno task gen` writes to builtin_parameters.generated.ts.
 */
export async function deriveBuiltinParameters(): Promise<Record<string, JsonSchema>> {
  const tools = createBuiltinTools({
    platform: undefined as unknown as Platform,
    profile: undefined as unknown as PermissionProfile,
    sandbox: { available: false, reason: "not used: only the schemas are read" },
  });
  return Object.fromEntries(
    await Promise.all(tools.map(async (tool) => [tool.name, await tool.derivedParameters()])),
  );
}

/**
 * The built-in tools as definitions to read (names, hook names), never to run: `trellis agents show`
 * resolves an agent's `tools` against them without a session.
 */
export function builtinToolsForListing(): BuiltinTool[] {
  return createBuiltinTools({
    platform: undefined as unknown as Platform,
    profile: undefined as unknown as PermissionProfile,
    sandbox: { available: false, reason: "not used: only the names are read" },
  });
}

/** The seven built-in tools, in declaration order; read-only ones may run in parallel. */
export function createBuiltinTools(options: BuiltinToolsOptions): BuiltinTool[] {
  const env = {
    platform: options.platform,
    profile: options.profile,
    sandbox: options.sandbox,
    outputMaxBytes: options.outputMaxBytes ?? DEFAULT_OUTPUT_MAX_BYTES,
  };
  return [readFileTool, listDirTool, globTool, grepTool, writeFileTool, editFileTool, shellTool].map((make) =>
    make(env)
  );
}
