import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";

/** What an OAuth login leaves behind for one server (MCP-3: never in config). */
export interface StoredCredentials {
  /** The server URL the tokens were issued for; other URLs never get them. */
  url: string;
  tokens?: { access_token: string; token_type: string; refresh_token?: string; [key: string]: unknown };
  /** Dynamic-registration result (client id, maybe a secret). */
  client?: { client_id: string; [key: string]: unknown };
  savedAt?: string;
}

/**
 * `$TRELLIS_HOME/credentials/mcp-<server>.json`, mode 0600, written with temp file + rename.
 * A missing or unreadable file is "not logged in", never an error.
 */
export class CredentialStore {
  constructor(private readonly fs: FileSystem, readonly dir: string) {}

  static forHome(fs: FileSystem, home: string): CredentialStore {
    return new CredentialStore(fs, path.join(home, "credentials"));
  }

  file(server: string): string {
    return path.join(this.dir, `mcp-${server}.json`);
  }

  async load(server: string, url: string): Promise<StoredCredentials> {
    try {
      const stored = JSON.parse(await this.fs.readTextFile(this.file(server))) as StoredCredentials;
      return stored.url === url ? stored : { url };
    } catch {
      return { url };
    }
  }

  async save(server: string, credentials: StoredCredentials): Promise<void> {
    await this.fs.mkdir(this.dir);
    await this.fs.chmod(this.dir, 0o700).catch(() => {});
    const body = JSON.stringify({ ...credentials, savedAt: new Date().toISOString() }, null, 2) + "\n";
    await this.fs.writeFileAtomic(this.file(server), body, { mode: 0o600 });
  }

  /** Forgets a server's tokens; false when there was nothing to forget. */
  async remove(server: string): Promise<boolean> {
    if (!await this.fs.stat(this.file(server))) return false;
    await this.fs.remove(this.file(server));
    return true;
  }
}
