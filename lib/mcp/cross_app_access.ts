import { type FetchLike, loadAuthSdk } from "./_sdk.ts";
import { authFailure, OAuthStepError } from "./oauth_failure.ts";

/** Enterprise-managed authorization inputs (SEP-990), as the conformance context names them. */
export interface CrossAppAccessContext {
  client_id: string;
  client_secret: string;
  idp_client_id: string;
  idp_id_token: string;
  idp_token_endpoint: string;
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * SEP-990: exchange the IdP's ID token for an ID-JAG at the IdP (RFC 8693), then the ID-JAG for an
 * access token at the MCP server's authorization server (RFC 7523, client_secret_basic). No
 * browser, no redirect. Returns a fetch that sends the token.
 */
export async function crossAppAccessFetch(serverUrl: string, ctx: CrossAppAccessContext): Promise<FetchLike> {
  return await exchangeTokens(serverUrl, ctx).catch((error) => {
    throw authFailure(serverUrl, error);
  });
}

async function exchangeTokens(serverUrl: string, ctx: CrossAppAccessContext): Promise<FetchLike> {
  const sdk = await loadAuthSdk();
  const prm = await sdk.discoverOAuthProtectedResourceMetadata(serverUrl);
  const issuerUrl = prm.authorization_servers?.[0];
  if (!issuerUrl) throw new OAuthStepError("protected resource metadata names no authorization server");
  const as = await sdk.discoverAuthorizationServerMetadata(issuerUrl);
  if (!as) throw new OAuthStepError(`no authorization server metadata at ${issuerUrl}`, { url: issuerUrl });
  if (!(as.grant_types_supported ?? []).includes(JWT_BEARER)) {
    throw new OAuthStepError("the authorization server does not support the jwt-bearer grant", {
      url: issuerUrl,
    });
  }
  const idJag = await tokenRequest(ctx.idp_token_endpoint, {
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: as.issuer,
    resource: prm.resource,
    subject_token: ctx.idp_id_token,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    client_id: ctx.idp_client_id,
  });
  // encodeURIComponent leaves only ASCII, which btoa encodes as UTF-8 base64 would.
  const basic = btoa(`${encodeURIComponent(ctx.client_id)}:${encodeURIComponent(ctx.client_secret)}`);
  const token = await tokenRequest(as.token_endpoint, { grant_type: JWT_BEARER, assertion: idJag }, basic);
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

async function tokenRequest(
  endpoint: string,
  params: Record<string, string>,
  basic?: string,
): Promise<string> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(basic ? { authorization: `Basic ${basic}` } : {}),
    },
    body: new URLSearchParams(params),
  });
  const body = await response.json().catch(() => undefined) as { access_token?: unknown } | undefined;
  if (!response.ok || typeof body?.access_token !== "string") {
    throw new OAuthStepError(`token request to ${endpoint} failed (HTTP ${response.status})`, {
      url: endpoint,
      status: response.status,
    });
  }
  return body.access_token;
}
