import * as path from "node:path";
import { type AppendHandle, digestHex, type FileSystem } from "../platform/mod.ts";
import { TrellisError } from "../shared/mod.ts";
import { type CheckpointRecord, parseRecords } from "./records.ts";

/** Where a session's checkpoints live: `$TRELLIS_HOME/checkpoints/<session id>/`. */
export function checkpointDir(home: string, sessionId: string): string {
  return path.join(home, "checkpoints", sessionId);
}

/** A blob whose bytes no longer match its name, or that is gone: a rewind refuses before it writes. */
export class CheckpointStoreError extends TrellisError {
  constructor(message: string, data: { file: string; path?: string }) {
    super("io", message, data);
    this.name = "CheckpointStoreError";
  }
}

const HASH = /^[0-9a-f]{64}$/;

/**
 * One session's content store: blobs named by their SHA-256 (`objects/<hex>`, written once, by
 * temp file and rename, so a crash never leaves half a blob under a good name) and the record log.
 * Never in the workspace or its git: under `$TRELLIS_HOME`, removed with the session.
 */
export class CheckpointStore {
  private handle: Promise<AppendHandle> | null = null;
  private made = false;

  constructor(private readonly fs: FileSystem, readonly dir: string) {}

  get recordsFile(): string {
    return path.join(this.dir, "records.jsonl");
  }

  blobFile(hash: string): string {
    return path.join(this.dir, "objects", hash);
  }

  /**
   * Stores `data` (once per content) and returns its digest. With `linkFrom` — the file `data` was
   * just read from, which a rename is about to replace — the blob is a hard link to it and no byte is
   * copied; across file systems (or where links fail) the bytes are written.
   */
  putBlob(data: Uint8Array, linkFrom?: string): Promise<string> {
    const hash = digestHex("sha256", data);
    const file = this.blobFile(hash);
    if (this.fs.sync.exists(file)) return Promise.resolve(hash);
    this.ensureDirs();
    if (linkFrom) {
      try {
        this.fs.sync.linkAtomic(linkFrom, file);
        return Promise.resolve(hash);
      } catch {
        // EXDEV (the workspace on another file system), a file system without links: copy instead.
      }
    }
    this.fs.sync.writeFileAtomic(file, data, { mode: 0o600 });
    return Promise.resolve(hash);
  }

  /** A blob's bytes, checked against its name: a missing or altered blob is an error naming it. */
  readBlob(hash: string, forPath: string): Promise<Uint8Array> {
    try {
      return Promise.resolve(this.readBlobNow(hash, forPath));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `readBlob`, blocking (a rewind reads each checkpoint before it writes anything). */
  readBlobNow(hash: string, forPath: string): Uint8Array {
    const file = this.blobFile(hash);
    const missing = () =>
      new CheckpointStoreError(`Cannot rewind ${forPath}: its checkpoint ${file} is missing from the store`, {
        file,
        path: forPath,
      });
    if (!HASH.test(hash)) throw missing();
    let data: Uint8Array;
    try {
      data = this.fs.sync.readFile(file);
    } catch {
      throw missing();
    }
    if (digestHex("sha256", data) !== hash) {
      throw new CheckpointStoreError(
        `Cannot rewind ${forPath}: its checkpoint ${file} is corrupt (its content no longer matches its digest)`,
        { file, path: forPath },
      );
    }
    return data;
  }

  async append(...records: CheckpointRecord[]): Promise<void> {
    if (records.length === 0) return;
    this.ensureDirs();
    this.handle ??= this.fs.openAppend(this.recordsFile);
    await (await this.handle).append(records.map((r) => JSON.stringify(r) + "\n").join(""));
  }

  async records(): Promise<CheckpointRecord[]> {
    let text: string;
    try {
      text = await this.fs.readTextFile(this.recordsFile);
    } catch {
      return [];
    }
    return parseRecords(text);
  }

  /** Replaces the log whole (temp file, then rename): a crash leaves the old log or the new one. */
  async rewrite(records: CheckpointRecord[]): Promise<void> {
    await this.close();
    this.ensureDirs();
    await this.fs.writeFileAtomic(this.recordsFile, records.map((r) => JSON.stringify(r) + "\n").join(""), {
      mode: 0o600,
    });
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    if (handle) await (await handle).close();
  }

  private ensureDirs(): void {
    if (this.made) return;
    this.fs.sync.mkdir(path.join(this.dir, "objects"));
    this.made = true;
  }
}
