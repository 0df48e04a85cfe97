import { BUILT_IN_PROVIDERS, DEFAULT_MODEL_PROVIDER, type TrellisConfig } from "../config/mod.ts";
import { UsageError } from "../shared/mod.ts";

export type WireApi = "responses" | "chat" | "messages";

/** A provider with its endpoint, credentials and limits resolved from config and the environment. */
export interface ResolvedProvider {
  id: string;
  name: string;
  /** Without a trailing slash; `/responses`, `/chat/completions` or `/messages` is appended. */
  baseUrl: string;
  wireApi: WireApi;
  apiKey?: string;
  /** The variable the key comes from, so errors can say what to check. */
  envKey?: string;
  /** Extra request headers (static and from `env_http_headers`), without Authorization. */
  headers: Record<string, string>;
  queryParams: Record<string, string>;
  requestMaxRetries?: number;
  streamMaxRetries?: number;
  streamIdleTimeoutMs?: number;
  streamMaxBytes?: number;
  streamMaxDurationMs?: number;
  /** `supports_custom_tools`: false sends freeform tools as `{input}` functions on Responses. */
  customTools?: boolean;
}

type ProviderEntry = NonNullable<TrellisConfig["model_providers"]>[string];

export interface ResolveProviderOptions {
  /** Fail when the provider's `env_key` is unset (default true); `debug prompt` needs no key. */
  requireKey?: boolean;
}

/**
 * Resolves `model_provider` against `model_providers` and the built-ins (`openai`, `anthropic`,
 * `ollama`).
 * A user entry with a built-in's id is layered over the built-in, as Codex does.
 */
export function resolveProvider(
  config: TrellisConfig,
  env: (name: string) => string | undefined,
  options: ResolveProviderOptions = {},
): ResolvedProvider {
  const id = config.model_provider ?? DEFAULT_MODEL_PROVIDER;
  const entry = lookupEntry(config, id);
  const envKey = entry.env_key;
  const apiKey = envKey ? nonEmpty(env(envKey)) : undefined;
  if (envKey && !apiKey && options.requireKey !== false) {
    const hint = entry.env_key_instructions ? ` (${entry.env_key_instructions})` : "";
    // The first run without a key: say what else would work, not only the variable (#21 item 11).
    const others = Object.keys(BUILT_IN_PROVIDERS).filter((p) => p !== id).join(", ");
    throw new UsageError(
      `Cannot use model provider "${id}": set the environment variable ${envKey}${hint}, or choose ` +
        `another provider with model_provider in config.toml (built in: ${others}; or your own ` +
        `[model_providers.<id>]) — README, "Configuration"`,
      { provider: id, field: envKey },
      "model_auth",
    );
  }
  return {
    id,
    name: entry.name ?? id,
    baseUrl: trimSlash(baseUrlFor(id, entry, env)),
    wireApi: entry.wire_api ?? "responses",
    ...(apiKey ? { apiKey } : {}),
    ...(envKey ? { envKey } : {}),
    headers: headersFor(entry, env),
    queryParams: { ...entry.query_params },
    requestMaxRetries: entry.request_max_retries,
    streamMaxRetries: entry.stream_max_retries,
    streamIdleTimeoutMs: entry.stream_idle_timeout_ms,
    streamMaxBytes: entry.stream_max_bytes,
    streamMaxDurationMs: entry.stream_max_duration_ms,
    ...(entry.supports_custom_tools !== undefined ? { customTools: entry.supports_custom_tools } : {}),
  };
}

function lookupEntry(config: TrellisConfig, id: string): ProviderEntry {
  const builtIns: Record<string, ProviderEntry> = BUILT_IN_PROVIDERS;
  const user = config.model_providers?.[id];
  const builtIn = builtIns[id];
  if (!user && !builtIn) {
    const known = [...new Set([...Object.keys(builtIns), ...Object.keys(config.model_providers ?? {})])]
      .sort();
    throw new UsageError(
      `Cannot use model provider "${id}": unknown provider (known: ${known.join(", ")})`,
      { provider: id, field: "model_provider", known },
      "config_unknown_provider",
    );
  }
  return { ...builtIn, ...user };
}

function baseUrlFor(id: string, entry: ProviderEntry, env: (name: string) => string | undefined): string {
  if (id === "anthropic") {
    // Claude Code's ANTHROPIC_BASE_URL names the host (`https://api.anthropic.com`); the API is under /v1.
    const override = nonEmpty(env("ANTHROPIC_BASE_URL"));
    if (override) return /\/v1\/*$/.test(override) ? override : `${trimSlash(override)}/v1`;
  }
  const override = id === "openai" ? nonEmpty(env("OPENAI_BASE_URL")) : undefined;
  return override ?? entry.base_url ?? BUILT_IN_PROVIDERS.openai.base_url;
}

function headersFor(entry: ProviderEntry, env: (name: string) => string | undefined): Record<string, string> {
  const headers: Record<string, string> = { ...entry.http_headers };
  for (const [header, variable] of Object.entries(entry.env_http_headers ?? {})) {
    const value = nonEmpty(env(variable));
    if (value) headers[header] = value;
  }
  return headers;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== "" ? value.trim() : undefined;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
