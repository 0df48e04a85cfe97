/**
 * Typed errors. Every error carries a string `code` and the data it is about (file, server, field),
 * so the CLI can print one readable line and tests can assert on data instead of message text.
 */

/** What kind of failure a TrellisError is: the `code` field, stable across releases. */
export type TrellisErrorCode =
  | "usage"
  | "git_repo_check"
  | "output_schema"
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
  | "patch_invalid"
  | "permission_denied"
  | "mcp_config"
  | "mcp_required_failed"
  | "mcp_protocol"
  | "mcp_auth"
  | "skill_load"
  | "hook_config"
  | "plugin"
  | "io"
  | "cancelled"
  | "internal"
  | ErrnoCode;

/**
 * Refusals of Trellis's own file layer carry the OS's errno names, so a caller's one `code` check
 * treats them as it treats the OS's own: EISDIR (a directory where a file was wanted), EFBIG (past a
 * size cap), ENOTREG (a FIFO, socket or device), ETIMEDOUT (a lock held too long), EXDEV (an opened
 * file that really lies outside the roots it was to be read from, as a rename across them is refused).
 */
export type ErrnoCode = "EISDIR" | "EFBIG" | "ENOTREG" | "ETIMEDOUT" | "EXDEV";

/** What an error is about, as data: the file and line, the config field, the MCP server or plugin. */
export interface ErrorData {
  /** The file at fault. */
  file?: string;
  /** Its 1-based line, when known. */
  line?: number;
  /** The config key or flag at fault. */
  field?: string;
  /** The MCP server at fault. */
  server?: string;
  /** The plugin at fault (`name@marketplace`). */
  plugin?: string;
  /** Anything else the error is about (a path, a URL, a value). */
  [key: string]: unknown;
}

/** Every error Trellis throws on purpose: a `code`, a readable message, and the data it is about. */
export class TrellisError extends Error {
  /** What kind of failure it is. */
  readonly code: TrellisErrorCode;
  /** What it is about. */
  readonly data: ErrorData;
  /** Exit code the CLI uses when this error ends a command. */
  readonly exitCode: number;

  /** An error of kind `code`; `exitCode` defaults to 1. */
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
  /** A mistake described by `message`, about `data`; code "usage" unless a narrower one applies. */
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
