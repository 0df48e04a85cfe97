import { type FetchLike, loadAuthSdk, type OAuthClientProvider } from "./_sdk.ts";

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
    for (let attempt = 1; attempt <= MAX_AUTH_ATTEMPTS; attempt++) {
      const challenge = await authChallenge(response);
      if (!challenge) return response;
      await authorize(provider, options, next, challenge);
      response = await send(next, provider, input, init);
    }
    return response;
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
  const { auth } = await loadAuthSdk();
  // A step-up asks for exactly what the server named; otherwise configured scopes win over discovery.
  const scope = challenge.stepUp ? challenge.scope ?? options.scope : options.scope ?? challenge.scope;
  if (challenge.stepUp) await provider.invalidateCredentials?.("tokens");
  const base = {
    serverUrl: options.serverUrl,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    scope,
    fetchFn,
  };
  const result = await auth(provider, base);
  if (result === "AUTHORIZED") return;
  const code = provider.takeCode?.();
  if (!code) throw new Error("authorization did not return a code");
  await auth(provider, { ...base, authorizationCode: code });
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
