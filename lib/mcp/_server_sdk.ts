/**
 * The SDK's server side, for `trellis mcp-server`: the low-level `Server` and its two transports,
 * loaded on first use like the client side (_sdk.ts), so no other command pays for them. Types are
 * imported statically (erased at run time) through the extension-less paths Deno resolves. Private
 * to lib/mcp.
 */
import type * as ServerIndex from "@modelcontextprotocol/sdk/server/index";
import type * as ServerStdio from "@modelcontextprotocol/sdk/server/stdio";
import type * as ServerHttp from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp";
import type * as Types from "@modelcontextprotocol/sdk/types";

export type { Server } from "@modelcontextprotocol/sdk/server/index";
export type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp";
export type { CallToolResult, ElicitRequestParams, LoggingLevel } from "@modelcontextprotocol/sdk/types";

export interface ServerSdk {
  Server: typeof ServerIndex.Server;
  StdioServerTransport: typeof ServerStdio.StdioServerTransport;
  WebStandardStreamableHTTPServerTransport: typeof ServerHttp.WebStandardStreamableHTTPServerTransport;
  ListToolsRequestSchema: typeof Types.ListToolsRequestSchema;
  CallToolRequestSchema: typeof Types.CallToolRequestSchema;
  EmptyResultSchema: typeof Types.EmptyResultSchema;
  McpError: typeof Types.McpError;
  ErrorCode: typeof Types.ErrorCode;
  isInitializeRequest: typeof Types.isInitializeRequest;
}

let loading: Promise<ServerSdk> | undefined;

/** The SDK's server classes, loaded once. */
export function loadServerSdk(): Promise<ServerSdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([server, stdio, http, types]) =>
    ({
      Server: server.Server,
      StdioServerTransport: stdio.StdioServerTransport,
      WebStandardStreamableHTTPServerTransport: http.WebStandardStreamableHTTPServerTransport,
      ListToolsRequestSchema: types.ListToolsRequestSchema,
      CallToolRequestSchema: types.CallToolRequestSchema,
      EmptyResultSchema: types.EmptyResultSchema,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
      isInitializeRequest: types.isInitializeRequest,
    }) as unknown as ServerSdk
  );
  return loading;
}
