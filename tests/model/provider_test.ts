import assert from "node:assert/strict";
import { resolveProvider } from "../../lib/model/mod.ts";
import { type TrellisError, UsageError } from "../../lib/shared/mod.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

function thrown(run: () => unknown): TrellisError {
  try {
    run();
  } catch (error) {
    return error as TrellisError;
  }
  throw new Error("expected an error");
}

Deno.test("resolveProvider() resolves the built-in openai provider when OPENAI_API_KEY is set", () => {
  assert.deepEqual(resolveProvider({}, envOf({ OPENAI_API_KEY: "sk-1" })), {
    id: "openai",
    name: "OpenAI",
    baseUrl: "https://api.openai.com/v1",
    wireApi: "responses",
    apiKey: "sk-1",
    envKey: "OPENAI_API_KEY",
    headers: {},
    queryParams: {},
    requestMaxRetries: undefined,
    streamMaxRetries: undefined,
    streamIdleTimeoutMs: undefined,
    streamMaxBytes: undefined,
    streamMaxDurationMs: undefined,
  });
});

Deno.test("resolveProvider() uses OPENAI_BASE_URL when it is set for openai", () => {
  const provider = resolveProvider(
    {},
    envOf({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://127.0.0.1:9/v1/" }),
  );
  assert.equal(provider.baseUrl, "http://127.0.0.1:9/v1");
});

Deno.test("resolveProvider() needs no key when the provider is ollama", () => {
  const provider = resolveProvider({ model_provider: "ollama" }, envOf({}));
  assert.deepEqual(
    { id: provider.id, baseUrl: provider.baseUrl, wireApi: provider.wireApi, apiKey: provider.apiKey },
    { id: "ollama", baseUrl: "http://localhost:11434/v1", wireApi: "chat", apiKey: undefined },
  );
});

Deno.test("resolveProvider() reads a user provider with headers, env headers and limits when config defines it", () => {
  const config = {
    model_provider: "corp",
    model_providers: {
      corp: {
        name: "Corp Gateway",
        base_url: "https://llm.corp.example/v1",
        env_key: "CORP_KEY",
        wire_api: "chat" as const,
        http_headers: { "x-team": "blue" },
        env_http_headers: { "x-org": "CORP_ORG", "x-absent": "NOT_SET" },
        query_params: { "api-version": "2025-01-01" },
        request_max_retries: 2,
        stream_max_retries: 1,
        stream_idle_timeout_ms: 5000,
        stream_max_bytes: 1_000_000,
        stream_max_duration_ms: 600_000,
      },
    },
  };
  assert.deepEqual(resolveProvider(config, envOf({ CORP_KEY: "ck", CORP_ORG: "org-9" })), {
    id: "corp",
    name: "Corp Gateway",
    baseUrl: "https://llm.corp.example/v1",
    wireApi: "chat",
    apiKey: "ck",
    envKey: "CORP_KEY",
    headers: { "x-team": "blue", "x-org": "org-9" },
    queryParams: { "api-version": "2025-01-01" },
    requestMaxRetries: 2,
    streamMaxRetries: 1,
    streamIdleTimeoutMs: 5000,
    streamMaxBytes: 1_000_000,
    streamMaxDurationMs: 600_000,
  });
});

Deno.test("resolveProvider() layers a user entry over the built-in when it reuses the id", () => {
  const config = { model_providers: { openai: { base_url: "http://proxy.local/v1" } } };
  const provider = resolveProvider(config, envOf({ OPENAI_API_KEY: "k" }));
  assert.deepEqual([provider.baseUrl, provider.envKey, provider.wireApi], [
    "http://proxy.local/v1",
    "OPENAI_API_KEY",
    "responses",
  ]);
});

Deno.test("resolveProvider() throws a UsageError listing the known ids when the provider is unknown", () => {
  const error = thrown(() =>
    resolveProvider(
      { model_provider: "nope", model_providers: { corp: { base_url: "http://x/v1" } } },
      envOf({}),
    )
  );
  assert.ok(error instanceof UsageError);
  assert.deepEqual(
    { code: error.code, exitCode: error.exitCode, message: error.message },
    {
      code: "config_unknown_provider",
      exitCode: 2,
      message: 'Cannot use model provider "nope": unknown provider (known: anthropic, corp, ollama, openai)',
    },
  );
});

Deno.test("resolveProvider() names the variable to set when the key is missing", () => {
  const error = thrown(() => resolveProvider({}, envOf({ OPENAI_API_KEY: " " })));
  assert.ok(error instanceof UsageError);
  assert.deepEqual(
    { code: error.code, exitCode: error.exitCode, message: error.message, field: error.data.field },
    {
      code: "model_auth",
      exitCode: 2,
      message:
        'Cannot use model provider "openai": set the environment variable OPENAI_API_KEY, or choose another provider with model_provider in config.toml (built in: anthropic, ollama; or your own [model_providers.<id>]) — README, "Configuration"',
      field: "OPENAI_API_KEY",
    },
  );
});

Deno.test("resolveProvider() resolves without a key when requireKey is false", () => {
  assert.equal(resolveProvider({}, envOf({}), { requireKey: false }).apiKey, undefined);
});
