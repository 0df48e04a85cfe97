/**
 * The everyday tools (#23 item 3) under each family's names: a per-family registry (`tool_set`)
 * takes a face's list; the default set (`trellis`) declares Codex's names for the plan, image and
 * question tools and Trellis's web_fetch.
 */
import type { BuiltinTool } from "./builtin_tool.ts";
import { todoWriteTool, updatePlanTool } from "./plan_tool.ts";
import { requestUserInputTool } from "./request_user_input.ts";
import type { EverydaySettings, ToolEnv } from "./tool_env.ts";
import { viewImageTool } from "./view_image.ts";
import { claudeWebFetchTool, webFetchTool } from "./web_fetch.ts";
import { DEFAULT_IMAGE_MAX_BYTES } from "./image_file.ts";

export type EverydayFace = "trellis" | "codex" | "claude";

/** Every everyday tool by model-facing name: what each face picks from. */
const MAKERS: Record<string, (env: ToolEnv) => BuiltinTool> = {
  update_plan: () => updatePlanTool(),
  TodoWrite: () => todoWriteTool(),
  view_image: viewImageTool,
  web_fetch: webFetchTool,
  WebFetch: claudeWebFetchTool,
  request_user_input: requestUserInputTool,
};

/**
 * Each face's names, in declaration order. Claude Code sends no image tool (its Read reads images)
 * and no question tool by that name, so its face has the plan and fetch tools only.
 */
export const EVERYDAY_FACES: Readonly<Record<EverydayFace, readonly string[]>> = {
  trellis: ["update_plan", "view_image", "web_fetch", "request_user_input"],
  codex: ["update_plan", "view_image", "web_fetch", "request_user_input"],
  claude: ["TodoWrite", "WebFetch"],
};

export const EVERYDAY_TOOL_NAMES: readonly string[] = Object.keys(MAKERS);

export function createEverydayTools(
  env: ToolEnv,
  face: EverydayFace,
  options: { viewImage?: boolean } = {},
): BuiltinTool[] {
  return EVERYDAY_FACES[face]
    .filter((name) => options.viewImage !== false || name !== "view_image")
    .map((name) => MAKERS[name](env));
}

/** Every everyday tool of every face (schemas for `deno task gen`, listings). */
export function allEverydayTools(env: ToolEnv): BuiltinTool[] {
  return EVERYDAY_TOOL_NAMES.map((name) => MAKERS[name](env));
}

export const DEFAULT_EVERYDAY_SETTINGS: EverydaySettings = {
  webFetch: { maxBytes: 5 * 1024 * 1024, timeoutMs: 30_000, allowPrivateAddresses: [], allowedDomains: [] },
  imageMaxBytes: DEFAULT_IMAGE_MAX_BYTES,
};
