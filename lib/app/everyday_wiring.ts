/**
 * `[tools]` (#23 item 3) into the everyday tools' settings and the model requests' hosted tools.
 */
import type { TrellisConfig } from "../config/mod.ts";
import type { ModelClient } from "../loop/mod.ts";
import type { HostedTools, UserQuestioner } from "../shared/mod.ts";
import { type BuiltinToolsOptions, DEFAULT_EVERYDAY_SETTINGS } from "../tools/mod.ts";

export function everydayToolOptions(
  config: TrellisConfig,
  questioner: UserQuestioner | undefined,
): Pick<BuiltinToolsOptions, "everyday" | "viewImage"> {
  const fetch = config.tools?.web_fetch ?? {};
  const defaults = DEFAULT_EVERYDAY_SETTINGS.webFetch;
  return {
    everyday: {
      webFetch: {
        allowedDomains: fetch.allowed_domains ?? defaults.allowedDomains,
        maxBytes: fetch.max_bytes ?? defaults.maxBytes,
        timeoutMs: fetch.timeout_ms ?? defaults.timeoutMs,
        allowPrivateAddresses: fetch.allow_private_addresses ?? defaults.allowPrivateAddresses,
      },
      ...(questioner ? { questioner } : {}),
    },
    viewImage: config.tools?.view_image ?? true,
  };
}

/** Codex's `tools.web_search`: true or "live", "cached"; false, "disabled" or unset: none. */
export function hostedTools(config: TrellisConfig): HostedTools {
  const setting = config.tools?.web_search;
  if (setting === true || setting === "live") return { webSearch: "live" };
  if (setting === "cached") return { webSearch: "cached" };
  return {};
}

/** Requests that declare tools also declare the hosted ones (a summary or `ask` request declares none). */
export function withHostedTools(model: ModelClient, hosted: HostedTools): ModelClient {
  if (!hosted.webSearch) return model;
  return {
    stream: (request, signal) =>
      model.stream(request.tools.length > 0 ? { ...request, hostedTools: hosted } : request, signal),
  };
}

/** Turn requests (those that declare tools) carry `exec --output-schema`; summary requests do not. */
export function withOutputSchema(
  model: ModelClient,
  schema: Record<string, unknown> | undefined,
): ModelClient {
  if (!schema) return model;
  return {
    stream: (request, signal) =>
      model.stream(request.tools.length > 0 ? { ...request, outputSchema: schema } : request, signal),
  };
}
