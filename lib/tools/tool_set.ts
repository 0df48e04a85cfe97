/**
 * `tool_set` (#23 item 2): which family's tool names and argument shapes a request declares. `auto`
 * gives each model family the set its own CLI sends (captured in fixtures/peers/): Claude models
 * Claude Code's, GPT-5/Codex models Codex's, every other model Trellis's. One session builds each
 * face once and picks per request, so `/model` switching family switches the set at the next request.
 * The subagent tool (`Agent` / Codex's spawn tools, agents.tool_style) is added by lib/agents after
 * these: this module never declares it.
 */
import type { ToolSetFace } from "../shared/mod.ts";
import type { BuiltinTool } from "./builtin_tool.ts";
import { type BuiltinToolsOptions, createBuiltinTools, toolEnv } from "./builtin_tools.ts";
import { claudeBashTool, claudeEditTool, claudeReadTool, claudeWriteTool } from "./claude_tool_set.ts";

import { applyPatchTool } from "./apply_patch_tool.ts";
import { execCommandTool, writeStdinTool } from "./exec_command_tool.ts";
import { ExecSessions } from "./exec_sessions.ts";
import { todoWriteTool, updatePlanTool } from "./plan_tool.ts";
import { requestUserInputTool } from "./request_user_input.ts";
import { toolSearchTool } from "./tool_search.ts";
import { viewImageTool } from "./view_image.ts";
import { claudeWebFetchTool } from "./web_fetch.ts";

export type ToolSetSetting = "auto" | ToolSetFace;

export interface ToolSetChoice {
  face: ToolSetFace;
  /** Why, in words for `trellis debug prompt` and the `/model` notice. */
  reason: string;
}

/** The face `setting` gives `model`, and why. */
export function chooseToolSet(setting: ToolSetSetting, model: string, isDefault = false): ToolSetChoice {
  const set = `tool_set = "${setting}"${isDefault ? " (the default)" : ""}`;
  if (setting !== "auto") return { face: setting, reason: set };
  const slug = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  if (slug.startsWith("claude-")) {
    return { face: "claude", reason: `${set}: ${model} is a Claude model (Claude Code's tools)` };
  }
  if (/^(gpt-5|codex-)/.test(slug)) {
    return { face: "codex", reason: `${set}: ${model} is a GPT-5-family model (Codex's tools)` };
  }
  return { face: "trellis", reason: `${set}: ${model} has no family set (Trellis's tools)` };
}

/**
 * Codex 0.171 declares `apply_patch` (freeform) to the newer GPT-5 models and the codex models,
 * not to gpt-5 itself (fixtures/peers/codex-0.171-gpt-5.5.json vs codex-0.171-gpt-5.json).
 */
export function offersApplyPatch(model: string): boolean {
  const slug = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  return /^(gpt-5\.\d|gpt-5-codex|codex-)/.test(slug);
}

interface Face {
  tools: BuiltinTool[];
  /** `apply_patch`, declared only to the models Codex offers it to. */
  patch?: BuiltinTool;
  deferred: BuiltinTool[];
}

export interface SessionToolSetsOptions extends BuiltinToolsOptions {
  toolSet: ToolSetSetting;
  /** No config layer set `tool_set` (so it is `auto`): the reason says "the default". */
  toolSetIsDefault?: boolean;
  /** Where background Bash output files go (made on first use). */
  outputDir: () => Promise<string>;
}

/** One session's tool sets: each face built on first use, the background sessions they share. */
export class SessionToolSets {
  readonly sessions: ExecSessions;
  readonly #faces = new Map<ToolSetFace, Face>();
  readonly #loaded = new Set<string>();

  constructor(private readonly options: SessionToolSetsOptions) {
    this.sessions = new ExecSessions(options.platform);
  }

  choose(model: string): ToolSetChoice {
    return chooseToolSet(this.options.toolSet, model, this.options.toolSetIsDefault);
  }

  /** The built-in tools a request for `model` declares: the face's, plus deferred ones selected so far. */
  toolsFor(model: string): { choice: ToolSetChoice; tools: BuiltinTool[] } {
    const choice = this.choose(model);
    const face = this.#face(choice.face);
    const patch = face.patch && offersApplyPatch(model) ? [face.patch] : [];
    return {
      choice,
      tools: [...face.tools, ...patch, ...face.deferred.filter((t) => this.#loaded.has(t.name))],
    };
  }

  /** What confines a command run for the session outside a tool call: the shell tool's own. */
  get commandEnv(): Pick<BuiltinToolsOptions, "platform" | "profile" | "sandbox"> {
    return this.options;
  }

  /** Kills every background command and PTY session still running (the session ends). */
  close(): Promise<void> {
    return this.sessions.closeAll();
  }

  #face(face: ToolSetFace) {
    let built = this.#faces.get(face);
    if (!built) {
      built = this.#build(face);
      this.#faces.set(face, built);
    }
    return built;
  }

  #build(face: ToolSetFace): Face {
    const options = this.options;
    if (face === "trellis") return { tools: createBuiltinTools(options), deferred: [] };
    const env = toolEnv(options);
    if (face === "codex") {
      return {
        tools: [
          execCommandTool(env, this.sessions),
          writeStdinTool(env, this.sessions),
          requestUserInputTool(env),
          ...(options.viewImage === false ? [] : [viewImageTool(env)]),
          updatePlanTool(),
        ],
        patch: applyPatchTool(env),
        deferred: [],
      };
    }
    const deferred = [todoWriteTool(), claudeWebFetchTool(env)];
    return {
      tools: [
        claudeBashTool(env, this.sessions, options.outputDir),
        claudeEditTool(env),
        claudeReadTool(env),
        toolSearchTool(deferred, (names) => names.forEach((n) => this.#loaded.add(n))),
        claudeWriteTool(env),
      ],
      deferred,
    };
  }
}
