import type { CommandResult } from "../platform/mod.ts";

/**
 * What an editor that drives Trellis (an ACP client, #25 item 1) offers the built-in tools in place
 * of the disk and the process table. Every check a tool makes — roots, protected paths, the
 * sandbox, approvals — runs before any of these is called: an editor never sees a request the
 * tool would have refused.
 */
export interface EditorFiles {
  /**
   * The text of `path` as the editor has it (an unsaved buffer wins over the disk), or null when
   * the editor does not hold it and the disk is read as without an editor.
   */
  readTextFile?(path: string, signal: AbortSignal): Promise<string | null>;
  /** Writes the whole text of `path` through the editor (its buffer and the disk). */
  writeTextFile?(path: string, content: string): Promise<void>;
  /** Told each change a file tool made: the call, the path, the text before (null: new) and after. */
  fileChanged?(change: FileChange): void;
  /**
   * Runs `cmd` (the argv the shell tool would spawn, sandbox wrapper included) in the editor's
   * terminal; resolves as the platform's runCommand does, never throwing.
   */
  runCommand?(request: EditorCommand): Promise<CommandResult>;
}

export interface FileChange {
  callId: string;
  path: string;
  oldText: string | null;
  newText: string;
}

export interface EditorCommand {
  callId: string;
  cmd: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  maxOutputBytes: number;
}
