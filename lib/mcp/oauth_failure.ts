import { type ErrorData, TrellisError } from "../shared/mod.ts";
import { type FetchLike, loadAuthSdk } from "./_sdk.ts";

/**
 * Why an OAuth flow failed, in one line that names no token, code or secret: a ZodError lists only
 * the fields it rejected, and a JSON parse error never quotes the body it choked on (a broken token
 * response may well contain a token).
 */
export function describeAuthFailure(error: unknown): string {
  if (error instanceof SyntaxError) return "an OAuth endpoint answered with something that is not JSON";
  const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
  if (Array.isArray(issues)) {
    const fields = issues.map((i) => `${i.path.map(String).join(".") || "(document)"}: ${i.message}`);
    return `an OAuth metadata document or response is invalid (${fields.join("; ")})`;
  }
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  const message = error instanceof Error ? error.message : String(error);
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}

/**
 * One step of an OAuth flow failed (no code in the redirect, no metadata, a refused token request).
 * Its message says only what went wrong at that step: `authFailure` adds which server was being
 * authorized, so the steps need not know it.
 */
export class OAuthStepError extends TrellisError {
  constructor(message: string, data: ErrorData = {}) {
    super("mcp_auth", message, data);
    this.name = "OAuthStepError";
  }
}

/** Errors Trellis already worded (a login hint, a retry limit) pass unchanged; the rest get context. */
export function authFailure(serverUrl: string, error: unknown): Error {
  if (error instanceof OAuthStepError) {
    return new TrellisError("mcp_auth", `Cannot authorize "${serverUrl}": ${describeAuthFailure(error)}`, {
      ...error.data,
      url: serverUrl,
    }, { cause: error });
  }
  if (error instanceof TrellisError || (error as Error)?.message?.startsWith("Cannot ")) {
    return error as Error;
  }
  return new TrellisError(
    "mcp_protocol",
    `Cannot authorize "${serverUrl}": ${describeAuthFailure(error)}`,
    {},
  );
}

/**
 * The SDK treats unusable protected-resource metadata as "RFC 9728 not supported" and falls back to
 * the server's origin as authorization server. When the server's 401 named the document itself,
 * a document that is there but invalid is the server's mistake: stop before any authorization.
 */
export async function checkAdvertisedMetadata(url: URL | undefined, fetchFn: FetchLike): Promise<void> {
  if (!url) return;
  const response = await fetchFn(url, { headers: { accept: "application/json" } });
  if (!response.ok) return void await response.body?.cancel();
  const { OAuthProtectedResourceMetadataSchema } = await loadAuthSdk();
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new OAuthStepError(`invalid protected-resource metadata at ${url.href}: not JSON`, {
      url: url.href,
    });
  }
  const parsed = OAuthProtectedResourceMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.map(String).join(".")).join(", ");
    throw new OAuthStepError(`invalid protected-resource metadata at ${url.href} (${fields})`, {
      url: url.href,
    });
  }
}
