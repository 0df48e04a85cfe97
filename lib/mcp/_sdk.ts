/**
 * The SDK entry points this folder uses. Types are imported statically (erased at run time); the
 * runtime modules load on first use, because evaluating the SDK's protocol schemas costs ~60 ms of
 * CPU at start-up and most commands (and turns without MCP servers) never need them.
 * The SDK's `./*` export maps types to `*.js.d.ts`, which Deno cannot find, so type imports name
 * the extension-less path. Private to lib/mcp.
 */
import type * as ClientAuth from "@modelcontextprotocol/sdk/client/auth";
import type * as ClientAuthExtensions from "@modelcontextprotocol/sdk/client/auth-extensions";
import type * as ClientIndex from "@modelcontextprotocol/sdk/client/index";
import type * as SharedAuth from "@modelcontextprotocol/sdk/shared/auth";
import type * as ClientSse from "@modelcontextprotocol/sdk/client/sse";
import type * as ClientHttp from "@modelcontextprotocol/sdk/client/streamableHttp";
import type * as SharedStdio from "@modelcontextprotocol/sdk/shared/stdio";
import type * as Types from "@modelcontextprotocol/sdk/types";

export type { Client } from "@modelcontextprotocol/sdk/client/index";
export type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport";
export type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth";
export type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth";
export type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitResult,
  JSONRPCMessage,
  Root,
  Tool,
} from "@modelcontextprotocol/sdk/types";
export type { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio";

export interface Sdk {
  Client: typeof ClientIndex.Client;
  SSEClientTransport: typeof ClientSse.SSEClientTransport;
  StreamableHTTPClientTransport: typeof ClientHttp.StreamableHTTPClientTransport;
  ReadBuffer: typeof SharedStdio.ReadBuffer;
  deserializeMessage: typeof SharedStdio.deserializeMessage;
  serializeMessage: typeof SharedStdio.serializeMessage;
  ElicitRequestSchema: typeof Types.ElicitRequestSchema;
  CreateMessageRequestSchema: typeof Types.CreateMessageRequestSchema;
  ListRootsRequestSchema: typeof Types.ListRootsRequestSchema;
  ToolListChangedNotificationSchema: typeof Types.ToolListChangedNotificationSchema;
  McpError: typeof Types.McpError;
  ResultSchema: typeof Types.ResultSchema;
  ToolSchema: typeof Types.ToolSchema;
}

/** OAuth parts, loaded only when a server actually answers 401 (or a probe/login needs them). */
export interface AuthSdk {
  auth: typeof ClientAuth.auth;
  extractWWWAuthenticateParams: typeof ClientAuth.extractWWWAuthenticateParams;
  discoverOAuthProtectedResourceMetadata: typeof ClientAuth.discoverOAuthProtectedResourceMetadata;
  discoverAuthorizationServerMetadata: typeof ClientAuth.discoverAuthorizationServerMetadata;
  ClientCredentialsProvider: typeof ClientAuthExtensions.ClientCredentialsProvider;
  PrivateKeyJwtProvider: typeof ClientAuthExtensions.PrivateKeyJwtProvider;
  OAuthProtectedResourceMetadataSchema: typeof SharedAuth.OAuthProtectedResourceMetadataSchema;
}

let loading: Promise<Sdk> | undefined;

/** The SDK's runtime classes, loaded once. */
export function loadSdk(): Promise<Sdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/shared/stdio.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([client, sse, http, stdio, types]) =>
    ({
      Client: client.Client,
      SSEClientTransport: sse.SSEClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      ReadBuffer: stdio.ReadBuffer,
      deserializeMessage: stdio.deserializeMessage,
      serializeMessage: stdio.serializeMessage,
      ElicitRequestSchema: types.ElicitRequestSchema,
      CreateMessageRequestSchema: types.CreateMessageRequestSchema,
      ListRootsRequestSchema: types.ListRootsRequestSchema,
      ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
      McpError: types.McpError,
      ResultSchema: types.ResultSchema,
      ToolSchema: types.ToolSchema,
    }) as unknown as Sdk
  );
  return loading;
}

let loadingAuth: Promise<AuthSdk> | undefined;

/** The SDK's OAuth functions and providers, loaded once. */
export function loadAuthSdk(): Promise<AuthSdk> {
  loadingAuth ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/auth.js"),
    import("@modelcontextprotocol/sdk/client/auth-extensions.js"),
    import("@modelcontextprotocol/sdk/shared/auth.js"),
  ]).then(([auth, authExtensions, sharedAuth]) =>
    ({
      auth: auth.auth,
      extractWWWAuthenticateParams: auth.extractWWWAuthenticateParams,
      discoverOAuthProtectedResourceMetadata: auth.discoverOAuthProtectedResourceMetadata,
      discoverAuthorizationServerMetadata: auth.discoverAuthorizationServerMetadata,
      ClientCredentialsProvider: authExtensions.ClientCredentialsProvider,
      PrivateKeyJwtProvider: authExtensions.PrivateKeyJwtProvider,
      OAuthProtectedResourceMetadataSchema: sharedAuth.OAuthProtectedResourceMetadataSchema,
    }) as unknown as AuthSdk
  );
  return loadingAuth;
}
