import type { TrellisConfig } from "./schema/mod.ts";
import type { ApprovalPolicy, SandboxMode } from "./schema/policies.ts";

// The one place each built-in default is written (#26 item 1): every reader of a setting that no
// layer set falls back to these names, never to a literal of its own.
export const DEFAULT_MODEL = "gpt-5";
export const DEFAULT_MODEL_PROVIDER = "openai";
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = "on-request";
export const DEFAULT_SANDBOX_MODE: SandboxMode = "workspace-write";
/**
 * The built-in sandbox mode when the workspace is the home directory or contains it (`/`, `/home`):
 * `workspace-write` there would let the model write `~/.bashrc` unasked (#20 item 5). Only the
 * built-in default changes; a mode the user chose (`-s`, a config layer, the profile) is kept.
 */
export const HOME_WORKSPACE_SANDBOX_MODE: SandboxMode = "read-only";

/**
 * `tool_set` when no layer sets it (#23 item 2): `auto`, each model family the tool set its own CLI
 * sends (Claude models Claude Code's, GPT-5-family models Codex's, every other model Trellis's). A
 * model does best with the tool names and argument shapes it was trained on; `tool_set = "trellis"`
 * pins Trellis's own set for every model.
 */
export const DEFAULT_TOOL_SET = "auto" as const;

/** `[checkpoints]` defaults (#25 item 2): on, shell changes named as not restorable. */
export const DEFAULT_CHECKPOINTS = { enabled: true, shell: "untracked" } as const;

/** The built-in layer: what applies when no file says otherwise. */
export const BUILT_IN_DEFAULTS: TrellisConfig = {
  model: DEFAULT_MODEL,
  model_provider: DEFAULT_MODEL_PROVIDER,
  approval_policy: DEFAULT_APPROVAL_POLICY,
  sandbox_mode: DEFAULT_SANDBOX_MODE,
};

export const BUILT_IN_PROVIDERS = {
  openai: {
    name: "OpenAI",
    base_url: "https://api.openai.com/v1",
    env_key: "OPENAI_API_KEY",
    wire_api: "responses" as const,
  },
  anthropic: {
    name: "Anthropic",
    base_url: "https://api.anthropic.com/v1",
    env_key: "ANTHROPIC_API_KEY",
    wire_api: "messages" as const,
  },
  ollama: {
    name: "Ollama",
    base_url: "http://localhost:11434/v1",
    wire_api: "chat" as const,
  },
};
