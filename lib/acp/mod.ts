/**
 * `trellis acp` (#25): Trellis as an Agent Client Protocol agent over stdio, for editors (Zed,
 * JetBrains, Neovim) and headless clients (acpx), on the official `@agentclientprotocol/sdk`
 * (protocol version 1). It speaks the protocol only; lib/app gives it sessions through `AcpHost`.
 *
 * @example
 * ```ts
 * import { serveAcp } from "./mod.ts";
 * // await serveAcp({ host, version: "0.1.0", input, output, shutdown, log: console.error });
 * ```
 * @module
 */
export { serveAcp } from "./serve.ts";
export type {
  AcpCommand,
  AcpHost,
  AcpMcpServer,
  AcpOpenRequest,
  AcpPermissionAsk,
  AcpPromptInput,
  AcpSession,
  AcpTurnEnd,
} from "./host.ts";
