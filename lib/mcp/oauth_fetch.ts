import { TrellisError } from "../shared/mod.ts";
import { type FetchLike, loadAuthSdk, type OAuthClientProvider } from "./_sdk.ts";
import { authFailure, checkAdvertisedMetadata, OAuthStepError } from "./oauth_failure.ts";

/** Any SDK provider; `takeCode` is how an interactive one hands over the redirect's code. */
type Provider = OAuthClientProvider & { takeCode?(): string | undefined };

/** Authorization rounds one request may trigger (first login plus step-ups). */
export const MAX_AUTH_ATTEMPTS = 3;

export interface OAuthFetchOptions {
  serverUrl: string;
  /** MCP-17: explicit (CLI) scopes, else configured ones; undefined → discovered, else none. */
  scope?: string;
  fetchFn?: FetchLike;
}

/**
 * Wraps fetch for one server: sends the stored bearer token; on 401 (or 403 `insufficient_scope`,
 * a step-up) runs the SDK's `auth()` — refresh, or authorize through the provider and exchange the
 * code — and retries, at most MAX_AUTH_ATTEMPTS times. Tokens only ever travel in the header.
 */
export function oauthFetch(provider: Provider, options: OAuthFetchOptions): FetchLike {
  const next: FetchLike = options.fetchFn ?? ((input, init) => fetch(input, init));
  return async (input, init) => {
    let response = await send(next, provider, input, init);
    for (let attempt = 0;; attempt++) {
      const challenge = await authChallenge(response);
      if (!challenge) return response;
      if (attempt === MAX_AUTH_ATTEMPTS) {
        const answer = challenge.stepUp ? "403 insufficient_scope" : "401";
        throw new TrellisError(
          "mcp_auth",
          `Cannot authorize "${options.serverUrl}": the server still answers ${answer} after ${MAX_AUTH_ATTEMPTS} authorization attempts`,
        );
      }
      await authorize(provider, options, next, challenge).catch((error) => {
        throw authFailure(options.serverUrl, error);
      });
      response = await send(next, provider, input, init);
    }
  };
}

interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
  stepUp: boolean;
}

async function authChallenge(response: Response): Promise<Challenge | undefined> {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const { extractWWWAuthenticateParams } = await loadAuthSdk();
  const params = extractWWWAuthenticateParams(response);
  if (response.status === 403 && params.error !== "insufficient_scope") return undefined;
  await response.body?.cancel().catch(() => {});
  return {
    resourceMetadataUrl: params.resourceMetadataUrl,
    scope: params.scope,
    stepUp: response.status === 403,
  };
}

async function authorize(
  provider: Provider,
  options: OAuthFetchOptions,
  fetchFn: FetchLike,
  challenge: Challenge,
): Promise<void> {
  // A step-up asks for exactly what the server named; otherwise configured scopes win over discovery.
  const scope = challenge.stepUp ? challenge.scope ?? options.scope : options.scope ?? challenge.scope;
  await checkAdvertisedMetadata(challenge.resourceMetadataUrl, fetchFn);
  if (challenge.stepUp) await provider.invalidateCredentials?.("tokens");
  const base = {
    serverUrl: options.serverUrl,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    scope,
    fetchFn,
  };
  try {
    await authorizeOnce(provider, base);
  } catch (error) {
    // MCP-17: only discovered scopes (never explicit or configured ones) earn one retry with none.
    if (options.scope !== undefined || !isInvalidScope(error)) throw error;
    await authorizeOnce(provider, { ...base, scope: undefined, fetchFn: withoutScopesSupported(fetchFn) });
  }
}

type AuthArgs = { serverUrl: string; resourceMetadataUrl?: URL; scope?: string; fetchFn: FetchLike };

async function authorizeOnce(provider: Provider, base: AuthArgs): Promise<void> {
  const { auth } = await loadAuthSdk();
  const result = await auth(provider, base);
  if (result === "AUTHORIZED") return;
  const code = provider.takeCode?.();
  if (!code) throw new OAuthStepError("authorization did not return a code");
  await auth(provider, { ...base, authorizationCode: code });
}

/** Rejected at the authorization redirect or at the token endpoint (both say `invalid_scope`). */
function isInvalidScope(error: unknown): boolean {
  return (error as { errorCode?: unknown } | undefined)?.errorCode === "invalid_scope";
}

/**
 * The SDK falls back to the protected-resource metadata's `scopes_supported` whenever no scope is
 * given; hiding that list from it is how a retry asks for no scope at all.
 */
function withoutScopesSupported(next: FetchLike): FetchLike {
  return async (input, init) => {
    const response = await next(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!response.ok || !url.pathname.startsWith("/.well-known/oauth-protected-resource")) return response;
    const text = await response.text();
    try {
      const { scopes_supported: _dropped, ...metadata } = JSON.parse(text);
      return Response.json(metadata, { status: response.status });
    } catch {
      return new Response(text, { status: response.status, headers: response.headers });
    }
  };
}

async function send(
  next: FetchLike,
  provider: Provider,
  input: string | URL,
  init: RequestInit | undefined,
): Promise<Response> {
  const headers = new Headers(init?.headers);
  const tokens = await provider.tokens();
  if (tokens) headers.set("Authorization", `Bearer ${tokens.access_token}`);
  return await next(input, { ...init, headers });
}
