import type { TrellisConfig } from "./schema/mod.ts";

/** The built-in layer: what applies when no file says otherwise. */
export const BUILT_IN_DEFAULTS: TrellisConfig = {
  model: "gpt-5",
  model_provider: "openai",
  approval_policy: "on-request",
  sandbox_mode: "workspace-write",
};

export const BUILT_IN_PROVIDERS = {
  openai: {
    name: "OpenAI",
    base_url: "https://api.openai.com/v1",
    env_key: "OPENAI_API_KEY",
    wire_api: "responses" as const,
  },
  ollama: {
    name: "Ollama",
    base_url: "http://localhost:11434/v1",
    wire_api: "chat" as const,
  },
};
