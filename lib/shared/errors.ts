/**
 * Typed errors. Every error carries a string `code` and the data it is about (file, server, field),
 * so the CLI can print one readable line and tests can assert on data instead of message text.
 */

export type TrellisErrorCode =
  | "usage"
  | "config_parse"
  | "config_invalid"
  | "config_edit"
  | "config_unknown_provider"
  | "model_auth"
  | "model_not_found"
  | "model_unreachable"
  | "model_http"
  | "model_protocol"
  | "model_stream_limit"
  | "tool_arguments"
  | "permission_denied"
  | "mcp_config"
  | "mcp_required_failed"
  | "mcp_protocol"
  | "skill_load"
  | "hook_config"
  | "plugin"
  | "io"
  | "cancelled"
  | "internal";

export interface ErrorData {
  file?: string;
  line?: number;
  field?: string;
  server?: string;
  plugin?: string;
  [key: string]: unknown;
}

export class TrellisError extends Error {
  readonly code: TrellisErrorCode;
  readonly data: ErrorData;
  /** Exit code the CLI uses when this error ends a command. */
  readonly exitCode: number;

  constructor(
    code: TrellisErrorCode,
    message: string,
    data: ErrorData = {},
    options: { exitCode?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "TrellisError";
    this.code = code;
    this.data = data;
    this.exitCode = options.exitCode ?? 1;
  }
}

/** A user mistake (bad flag, bad config, bad input file): exit 2, printed without a stack trace. */
export class UsageError extends TrellisError {
  constructor(message: string, data: ErrorData = {}, code: TrellisErrorCode = "usage") {
    super(code, message, data, { exitCode: 2 });
    this.name = "UsageError";
  }
}

/** The turn or command was interrupted by the user (SIGINT): exit 130. */
export class CancelledError extends TrellisError {
  constructor(message = "interrupted") {
    super("cancelled", message, {}, { exitCode: 130 });
    this.name = "CancelledError";
  }
}

export function isTrellisError(value: unknown): value is TrellisError {
  return value instanceof TrellisError;
}

/** One line for a person: the message, never a stack. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
