/**
 * What the file tools tell a checkpoint recorder (#25 item 2), so every turn keeps the state of each
 * file they change before its first change of that turn. A port: lib/tools calls it, lib/checkpoints
 * implements it, lib/app wires one per session.
 */
export interface FileChangeRecorder {
  /**
   * Before a tool replaces or creates `path` (resolved, absolute). `current` is the content the tool
   * already read (null: no file there), so a 1 MB edit is not read twice; absent: the recorder reads.
   * `inPlace`: the write will not replace the file by rename (an ACP editor writes it, #25 item 1),
   * so the old inode keeps changing: its bytes are copied, never hard-linked.
   */
  beforeChange(path: string, current?: Uint8Array | null, options?: { inPlace?: boolean }): Promise<void>;
  /** After the tool wrote `path`: what it left there (null: removed), so a later user edit shows. */
  afterChange(path: string, written: Uint8Array | string | null): Promise<void>;
  /**
   * Around one shell command: `run` is the command. Under `checkpoints.shell = "snapshot"` the
   * writable roots' files it changed are recorded; otherwise the command is named as not restorable.
   */
  aroundCommand<T>(command: string, cwd: string, run: () => Promise<T>): Promise<T>;
}
