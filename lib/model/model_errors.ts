/**
 * The one-line errors a model request can end with. Every message goes through `redact` so a key a
 * server echoes back never reaches a terminal or a transcript.
 */
import { TrellisError } from "../shared/mod.ts";
import type { ResolvedProvider } from "./provider.ts";

export interface RequestTarget {
  provider: ResolvedProvider;
  url: string;
  model: string;
}

export function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join("***") : text;
}

function modelError(
  target: RequestTarget,
  code: "model_auth" | "model_not_found" | "model_unreachable" | "model_http" | "model_protocol",
  message: string,
  extra: Record<string, unknown> = {},
): TrellisError {
  const data = { provider: target.provider.id, url: target.url, model: target.model, ...extra };
  return new TrellisError(code, redact(message, target.provider.apiKey), data);
}

/** The error for a final (not retried, or out of retries) HTTP status. */
export function httpStatusError(target: RequestTarget, status: number, body: string, attempts: number) {
  const detail = summarizeBody(body);
  const suffix = detail ? `: ${detail}` : "";
  if (status === 401 || status === 403) {
    const check = target.provider.envKey
      ? `check ${target.provider.envKey}`
      : "check the provider's http_headers and env_http_headers";
    return modelError(
      target,
      "model_auth",
      `Cannot authenticate with model provider "${target.provider.name}": HTTP ${status}, ${check}${suffix}`,
      { status },
    );
  }
  if (status === 404) {
    return modelError(
      target,
      "model_not_found",
      `Cannot find model "${target.model}" at "${target.url}": HTTP 404${suffix}`,
      { status },
    );
  }
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  return modelError(
    target,
    "model_http",
    `Cannot get a model response from "${target.url}": HTTP ${status}${tries}${suffix}`,
    {
      status,
      attempts,
    },
  );
}

export function unreachableError(target: RequestTarget, cause: unknown, attempts: number): TrellisError {
  const reason = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
  const error = modelError(
    target,
    "model_unreachable",
    `Cannot reach model provider "${target.provider.name}" at "${target.provider.baseUrl}": ${reason}`,
    { attempts },
  );
  return error;
}

export function protocolError(target: RequestTarget, state: string): TrellisError {
  return modelError(target, "model_protocol", `Cannot read the model stream from "${target.url}": ${state}`);
}

/** A failure the provider reported inside the stream (`response.failed`, `error`, a chat error chunk). */
export function streamFailureError(
  target: RequestTarget,
  message: string,
  providerCode?: string,
): TrellisError {
  const code = providerCode ? ` (${providerCode})` : "";
  return modelError(
    target,
    "model_http",
    `Cannot complete the model response from "${target.url}": ${message}${code}`,
    {
      providerCode,
    },
  );
}

/** The provider's own error message when the body is OpenAI-shaped JSON, else a short excerpt. */
function summarizeBody(body: string): string {
  const trimmed = body.trim();
  if (!trimmed) return "";
  try {
    const parsed = JSON.parse(trimmed);
    const message = parsed?.error?.message ?? parsed?.message;
    if (typeof message === "string") return oneLine(message);
  } catch {
    // not JSON: fall through to the excerpt
  }
  return oneLine(trimmed);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
