import { UsageError } from "../shared/mod.ts";
import { OAuthStepError } from "./oauth_failure.ts";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthTokens,
} from "./_sdk.ts";
import type { StoredCredentials } from "./credential_store.ts";

export interface TrellisOAuthOptions {
  server: string;
  /** Where the authorization server sends the browser back (a loopback URL). */
  redirectUrl: string;
  /** State loaded from the credential store (or empty, for a probe). */
  initial: StoredCredentials;
  /** Persists state after every change; omitted → memory only. */
  save?(state: StoredCredentials): Promise<void>;
  /** A pre-registered client: no dynamic registration happens. */
  client?: { client_id: string; client_secret?: string };
  /** A client ID metadata document URL, used when the server supports them. */
  clientMetadataUrl?: string;
  /**
   * Sends a person (or a headless fetch) to the authorization URL and resolves with the code the
   * redirect carried. Omitted: authorization is impossible here (`trellis mcp login` is needed).
   */
  authorize?(url: URL): Promise<string>;
}

/** The authorization redirect carried `error=…` instead of a code (RFC 6749 §4.1.2.1). */
export class AuthorizationDeniedError extends Error {
  constructor(readonly errorCode: string, description?: string | null) {
    super(`the authorization server answered ${errorCode}${description ? ` (${description})` : ""}`);
    this.name = "AuthorizationDeniedError";
  }
}

/** The code an authorization redirect carries; its `error` (or no code at all) is thrown. */
export function codeFromRedirect(redirect: URL): string {
  const code = redirect.searchParams.get("code");
  if (code) return code;
  const error = redirect.searchParams.get("error");
  if (error) throw new AuthorizationDeniedError(error, redirect.searchParams.get("error_description"));
  throw new OAuthStepError("the authorization redirect carried no code");
}

/**
 * Trellis's `OAuthClientProvider`: the SDK does discovery (RFC 9728, RFC 8414/OIDC), registration,
 * PKCE S256, the RFC 8707 `resource` check and token requests; this class holds the state, and
 * decides how a person reaches the authorization page.
 */
export class TrellisOAuthProvider implements OAuthClientProvider {
  #state: StoredCredentials;
  #verifier: string | undefined;
  #code: string | undefined;

  constructor(private readonly options: TrellisOAuthOptions) {
    this.#state = {
      ...options.initial,
      ...(options.client ? { client: options.client } : {}),
    };
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Trellis",
      redirect_uris: [this.options.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#state.client as OAuthClientInformationMixed | undefined;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.#state = { ...this.#state, client: client as StoredCredentials["client"] };
    await this.options.save?.(this.#state);
  }

  tokens(): OAuthTokens | undefined {
    return this.#state.tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.#state = { ...this.#state, tokens: tokens as StoredCredentials["tokens"] };
    await this.options.save?.(this.#state);
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.options.authorize) {
      throw new UsageError(
        `Cannot authorize MCP server "${this.options.server}": not logged in; run \`trellis mcp login ${this.options.server}\``,
        { server: this.options.server },
        "mcp_config",
      );
    }
    this.#code = await this.options.authorize(url);
  }

  /** The code the last redirect produced, once. */
  takeCode(): string | undefined {
    const code = this.#code;
    this.#code = undefined;
    return code;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.#verifier) throw new OAuthStepError("no PKCE code verifier was saved");
    return this.#verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all" || scope === "tokens") this.#state = { ...this.#state, tokens: undefined };
    if ((scope === "all" || scope === "client") && !this.options.client) {
      this.#state = { ...this.#state, client: undefined };
    }
    if (scope === "all" || scope === "verifier") this.#verifier = undefined;
    await this.options.save?.(this.#state);
  }
}
