import type { Platform, SandboxStatus } from "../platform/mod.ts";
import type { FileChangeRecorder, JsonSchema } from "../shared/mod.ts";
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
import {
  allEverydayTools,
  createEverydayTools,
  DEFAULT_EVERYDAY_SETTINGS,
  type EverydayFace,
} from "./everyday_tools.ts";
import type { EverydaySettings, ToolEnv } from "./tool_env.ts";
import type { EditorFiles } from "./editor_files.ts";

export interface BuiltinToolsOptions {
  platform: Platform;
  profile: PermissionProfile;
  /** From `detectSandbox(platform)`; decides whether shell runs under bwrap or needs approval. */
  sandbox: SandboxStatus;
  /** Budget for one output before head+tail truncation (default 64 KiB). */
  outputMaxBytes?: number;
  /** The everyday tools' settings (`[tools]`, the person to ask); defaults: no one to ask. */
  everyday?: Partial<EverydaySettings>;
  /** Whose names the everyday tools take (default "trellis"); a per-family registry picks it. */
  everydayFace?: EverydayFace;
  /** `tools.view_image` (default true). */
  viewImage?: boolean;
  /** An editor's files and terminal (`trellis acp`, #25 item 1); absent: the disk, own processes. */
  editor?: EditorFiles;
  /** The session's checkpoint recorder (#25 item 2): told before each file-tool change. */
  changes?: FileChangeRecorder;
}

/**
 * Each built-in tool's JSON Schema as zod derives it from the tool's argument schema now: what
 * `deno task gen` writes to builtin_parameters.generated.ts.
 */
export async function deriveBuiltinParameters(): Promise<Record<string, JsonSchema>> {
  const options: BuiltinToolsOptions = {
    platform: undefined as unknown as Platform,
    profile: undefined as unknown as PermissionProfile,
    sandbox: { available: false, reason: "not used: only the schemas are read" },
  };
  const tools = [...createBuiltinTools(options), ...allEverydayTools(toolEnv(options))];
  const unique = [...new Map(tools.map((tool) => [tool.name, tool])).values()];
  return Object.fromEntries(
    await Promise.all(unique.map(async (tool) => [tool.name, await tool.derivedParameters()])),
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

/** The seven file and shell tools, in declaration order; read-only ones may run in parallel. */
export const CORE_TOOL_MAKERS = [
  readFileTool,
  listDirTool,
  globTool,
  grepTool,
  writeFileTool,
  editFileTool,
  shellTool,
] as const;

/** The seven core tools, then the everyday tools (#23 item 3) under `everydayFace`'s names. */
export function createBuiltinTools(options: BuiltinToolsOptions): BuiltinTool[] {
  const env = toolEnv(options);
  return [
    ...CORE_TOOL_MAKERS.map((make) => make(env)),
    ...createEverydayTools(env, options.everydayFace ?? "trellis", { viewImage: options.viewImage }),
  ];
}

/** One session's tool environment, for the core tools and a registry's own faces alike. */
export function toolEnv(options: BuiltinToolsOptions): ToolEnv {
  return {
    platform: options.platform,
    profile: options.profile,
    sandbox: options.sandbox,
    outputMaxBytes: options.outputMaxBytes ?? DEFAULT_OUTPUT_MAX_BYTES,
    everyday: {
      ...DEFAULT_EVERYDAY_SETTINGS,
      ...options.everyday,
      webFetch: { ...DEFAULT_EVERYDAY_SETTINGS.webFetch, ...options.everyday?.webFetch },
    },
    ...(options.editor ? { editor: options.editor } : {}),
    ...(options.changes ? { changes: options.changes } : {}),
  };
}
