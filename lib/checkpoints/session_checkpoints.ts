import type { FileSystem } from "../platform/mod.ts";
import { digestHex } from "../platform/mod.ts";
import type { FileChangeRecorder } from "../shared/mod.ts";
import type { CheckpointStore } from "./checkpoint_store.ts";
import { RootsSnapshot } from "./shell_snapshot.ts";

export interface SessionCheckpointsOptions {
  fs: FileSystem;
  store: CheckpointStore;
  /** `checkpoints.shell`: "snapshot" records what each shell command changed in `writableRoots`. */
  shell: "untracked" | "snapshot";
  writableRoots: readonly string[];
}

/**
 * A session's recorder (#25 item 2): the file tools call it before and after each change, the shell
 * tool around each command. Only a file's first change in a turn keeps its prior state — the state
 * a rewind to that turn puts back.
 */
export class SessionCheckpoints implements FileChangeRecorder {
  private turn = 0;
  private touched = new Set<string>();
  private readonly snapshot: RootsSnapshot | null;

  constructor(private readonly options: SessionCheckpointsOptions) {
    this.snapshot = options.shell === "snapshot"
      ? new RootsSnapshot(options.fs, options.writableRoots)
      : null;
  }

  get store(): CheckpointStore {
    return this.options.store;
  }

  /** Turn `n` (numbered from 1, as `/rewind` shows it) starts: later changes belong to it. */
  beginTurn(n: number): void {
    this.turn = n;
    this.touched = new Set();
  }

  async beforeChange(
    path: string,
    current?: Uint8Array | null,
    options?: { inPlace?: boolean },
  ): Promise<void> {
    if (this.turn === 0 || this.touched.has(path)) return;
    const { fs, store } = this.options;
    const info = current === null ? null : fs.sync.lstat(path);
    let blob: string | null = null;
    // The file tools replace a file by rename, so the old inode can become the blob itself; an
    // editor's in-place write would change that inode too (and refuses a file with two links).
    const linkFrom = options?.inPlace ? undefined : path;
    if (info?.isFile) blob = await store.putBlob(current ?? await fs.readFile(path), linkFrom);
    // Marked only once the state is safe: a failed read leaves the next change to try again.
    this.touched.add(path);
    await store.append({
      kind: "before",
      turn: this.turn,
      path,
      blob,
      mode: info ? info.mode & 0o7777 : 0o644,
    });
  }

  async afterChange(path: string, written: Uint8Array | string | null): Promise<void> {
    if (this.turn === 0) return;
    const info = written === null ? null : this.options.fs.sync.lstat(path);
    const left = info?.isFile
      ? { stat: { ino: info.ino ?? 0, size: info.size, mtimeMs: info.mtimeMs } }
      : { hash: written === null ? null : digestHex("sha256", written) };
    await this.options.store.append({ kind: "after", turn: this.turn, path, ...left, by: "tool" });
  }

  async aroundCommand<T>(command: string, cwd: string, run: () => Promise<T>): Promise<T> {
    const { store } = this.options;
    if (this.turn === 0) return await run();
    if (!this.snapshot) {
      await store.append({ kind: "shell", turn: this.turn, command, cwd, snapshot: false });
      return await run();
    }
    const before = await this.snapshot.take(store);
    try {
      return await run();
    } finally {
      const after = await this.snapshot.take(store);
      for (const change of RootsSnapshot.changes(before, after)) {
        if (!this.touched.has(change.path)) {
          this.touched.add(change.path);
          await store.append({ kind: "before", turn: this.turn, ...change.before });
        }
        await store.append({
          kind: "after",
          turn: this.turn,
          path: change.path,
          hash: change.after,
          by: "shell",
        });
      }
      await store.append({ kind: "shell", turn: this.turn, command, cwd, snapshot: true });
    }
  }

  close(): Promise<void> {
    return this.options.store.close();
  }
}
